import { ZEmailRequest, ZLoginRequest } from '@cairn/contracts/accounts';
import { data, Form, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import { FormError } from '../components/form-error';
import { MailIcon } from '../components/icons';
import { focusField, postedEmail, withEmail } from '../components/public-form';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../components/ui/card';
import { Field } from '../components/ui/field';
import { Input } from '../components/ui/input';
import { apiFor } from '../lib/api.server';
import { normalizeError } from '../lib/api-error';
import { apiFailure, parseForm } from '../lib/form-data.server';
import { webLoadContext } from '../lib/load-context';
import { safeRedirect, setAuthCookie } from '../lib/session.server';
import type { Route } from './+types/login';

interface LoginResponse {
  token: string;
}

export const meta: Route.MetaFunction = () => [{ title: 'Sign in · Cairn' }];

/** The sign-in form posts here; the "resend the verification e-mail" form posts with ?intent=resend. */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const api = apiFor(args);
  const intent = new URL(request.url).searchParams.get('intent');
  const email = await postedEmail(request);

  // "Resend the verification e-mail" for an account that is not verified yet.
  if (intent === 'resend') {
    const parsed = await parseForm(request, ZEmailRequest);
    if (!parsed.ok) return withEmail(parsed.response, email);
    try {
      const answer = await api.post<{ detail: string }>('/api/verify-email/resend/', parsed.value, {
        auth: false,
      });
      return { resent: answer.detail, email };
    } catch (error) {
      return withEmail(apiFailure(error, []), email);
    }
  }

  const parsed = await parseForm(request, ZLoginRequest);
  if (!parsed.ok) return withEmail(parsed.response, email);
  try {
    const { token } = await api.post<LoginResponse>('/api/login/', parsed.value, { auth: false });
    const to = safeRedirect(parsed.form.get('redirectTo'));
    const { secureCookies, sessionMaxAgeSeconds } = webLoadContext(context);
    return redirect(to, {
      headers: { 'Set-Cookie': setAuthCookie(token, secureCookies, sessionMaxAgeSeconds) },
    });
  } catch (error) {
    const normalized = normalizeError(error);
    if (normalized.code === 'email_not_verified') {
      return data(
        { errors: { fieldErrors: {}, formError: normalized.message }, unverified: true, email },
        { status: 403 },
      );
    }
    return withEmail(apiFailure(error, ['email', 'password']), email);
  }
}

/** Works without JavaScript (the public pages ship none): errors come back from the action. */
export default function Login({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const redirectTo = params.get('redirectTo') ?? '';
  const query = redirectTo ? `redirectTo=${encodeURIComponent(redirectTo)}` : '';
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formAction?.startsWith('/login') === true;
  const errors = actionData && 'errors' in actionData ? actionData.errors : null;
  const fieldErrors: Record<string, string> = errors?.fieldErrors ?? {};
  const email = actionData?.email ?? '';
  const unverified = Boolean(actionData && 'unverified' in actionData);
  const resent = actionData && 'resent' in actionData ? actionData.resent : null;
  const resending = new URL(navigation.formAction ?? '/', 'http://x').searchParams.get('intent') === 'resend';
  // A failed resend is answered like any failed post: its message shows in the resend box.
  const resendFailed = params.get('intent') === 'resend' && errors !== null && !unverified;
  const focus = focusField(errors, ['email', 'password'], 'email');

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sign in</CardTitle>
        <CardDescription>Welcome back. Sign in with your e-mail address and password.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {params.get('reset') === '1' ? (
          <Alert variant="success">
            <AlertDescription>Your password was changed. Sign in with the new one.</AlertDescription>
          </Alert>
        ) : null}
        <Form method="post" action={`/login${query ? `?${query}` : ''}`} noValidate className="grid gap-4">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <FormError message={unverified || resendFailed ? null : errors?.formError} />
          <Field id="email" label="Email" error={fieldErrors.email}>
            {(aria) => (
              <Input
                {...aria}
                name="email"
                type="email"
                autoComplete="email"
                defaultValue={email}
                autoFocus={focus === 'email'}
              />
            )}
          </Field>
          <Field id="password" label="Password" error={fieldErrors.password}>
            {(aria) => (
              <Input
                {...aria}
                name="password"
                type="password"
                autoComplete="current-password"
                autoFocus={focus === 'password'}
              />
            )}
          </Field>
          <div className="flex justify-end">
            <Link
              to="/forgot-password"
              className="text-sm text-muted-foreground underline-offset-4 hover:underline"
            >
              Forgot your password?
            </Link>
          </div>
          <Button type="submit" disabled={submitting && !resending}>
            {submitting && !resending ? 'Signing in…' : 'Sign in'}
          </Button>
        </Form>
        {unverified || resent || resendFailed ? (
          <ResendVerification
            email={email}
            query={query}
            title={unverified ? (errors?.formError ?? '') : 'Verify your e-mail address before logging in.'}
            sent={resent}
            failed={resendFailed ? (errors?.formError ?? Object.values(fieldErrors)[0] ?? null) : null}
            busy={submitting && resending}
          />
        ) : null}
      </CardContent>
      <CardFooter className="justify-center text-sm text-muted-foreground">
        <span>
          No account yet?{' '}
          <Link to="/register" className="font-medium text-foreground underline underline-offset-4">
            Create one
          </Link>
        </span>
      </CardFooter>
    </Card>
  );
}

/** Offered when the account exists but its e-mail address is not verified yet. */
function ResendVerification({
  email,
  query,
  title,
  sent,
  failed,
  busy,
}: {
  email: string;
  query: string;
  title: string;
  sent: string | null;
  failed: string | null;
  busy: boolean;
}) {
  return (
    <Alert>
      <MailIcon aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <p>Open the link in the e-mail we sent you. Did not get it?</p>
        <Form method="post" action={`/login?intent=resend${query ? `&${query}` : ''}`} className="mt-2">
          <input type="hidden" name="email" value={email} />
          <Button type="submit" variant="outline" size="sm" disabled={busy}>
            {busy ? 'Sending…' : 'Resend verification e-mail'}
          </Button>
        </Form>
        {sent ? (
          <p className="text-success" role="status">
            Verification e-mail sent. {sent}
          </p>
        ) : null}
        {failed ? <p className="text-destructive">{failed}</p> : null}
      </AlertDescription>
    </Alert>
  );
}
