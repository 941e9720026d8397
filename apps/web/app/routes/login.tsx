import { ZEmailRequest, ZLoginRequest } from '@cairn/contracts/accounts';
import { MailIcon } from 'lucide-react';
import { useEffect } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import {
  data,
  Form,
  Link,
  redirect,
  useFetcher,
  useNavigation,
  useSearchParams,
  useSubmit,
} from 'react-router';
import { toast } from 'sonner';
import { FormError } from '../components/form-error';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../components/ui/card';
import { Field } from '../components/ui/field';
import { Input } from '../components/ui/input';
import { apiFor } from '../lib/api.server';
import { normalizeError } from '../lib/api-error';
import { apiFailure, parseForm } from '../lib/form-data.server';
import { safeRedirect, setAuthCookie } from '../lib/session.server';
import type { Route } from './+types/login';

interface LoginResponse {
  token: string;
}

interface LoginValues {
  email: string;
  password: string;
}

/**
 * The browser-side check of the sign-in form: the same rules and messages as ZLoginRequest, which the
 * action applies again. Written without zod so the sign-in page ships no validation library (bench).
 */
const loginResolver: Resolver<LoginValues> = async (values) => {
  const errors: Partial<Record<keyof LoginValues, { type: string; message: string }>> = {};
  const email = values.email.trim();
  if (!email) errors.email = { type: 'required', message: 'Required' };
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    errors.email = { type: 'email', message: 'Invalid email address' };
  if (!values.password) errors.password = { type: 'required', message: 'Required' };
  return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
};

export const meta: Route.MetaFunction = () => [{ title: 'Sign in · Cairn' }];

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const api = apiFor(args);
  const intent = new URL(request.url).searchParams.get('intent');

  // "Resend the verification e-mail" for an account that is not verified yet.
  if (intent === 'resend') {
    const parsed = await parseForm(request, ZEmailRequest);
    if (!parsed.ok) return parsed.response;
    try {
      const answer = await api.post<{ detail: string }>('/api/verify-email/resend/', parsed.value, {
        auth: false,
      });
      return { resent: answer.detail };
    } catch (error) {
      return apiFailure(error, []);
    }
  }

  const parsed = await parseForm(request, ZLoginRequest);
  if (!parsed.ok) return parsed.response;
  try {
    const { token } = await api.post<LoginResponse>('/api/login/', parsed.value, { auth: false });
    const to = safeRedirect(parsed.form.get('redirectTo'));
    return redirect(to, { headers: { 'Set-Cookie': setAuthCookie(token, context.secureCookies) } });
  } catch (error) {
    const normalized = normalizeError(error);
    if (normalized.code === 'email_not_verified') {
      return data(
        { errors: { fieldErrors: {}, formError: normalized.message }, unverified: true },
        { status: 403 },
      );
    }
    return apiFailure(error, ['email', 'password']);
  }
}

export default function Login({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const redirectTo = params.get('redirectTo') ?? '';
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formAction?.startsWith('/login') === true;
  const errors = actionData && 'errors' in actionData ? actionData.errors : null;
  const form = useForm<LoginValues>({ resolver: loginResolver, defaultValues: { email: '', password: '' } });
  const submit = useSubmit();
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const element = event.currentTarget;
    void form.handleSubmit(() => submit(element, { method: 'post' }))(event);
  };
  useEffect(() => {
    const fieldErrors: Record<string, string> = errors?.fieldErrors ?? {};
    for (const field of ['email', 'password'] as const) {
      const message = fieldErrors[field];
      if (message) form.setError(field, { type: 'server', message });
    }
  }, [errors, form]);
  const {
    register,
    formState: { errors: fieldErrors },
  } = form;
  const unverified = Boolean(actionData && 'unverified' in actionData);

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
        <Form method="post" noValidate onSubmit={onSubmit} className="grid gap-4">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <FormError message={unverified ? null : errors?.formError} />
          <Field id="email" label="Email" error={fieldErrors.email?.message}>
            {(aria) => <Input {...aria} type="email" autoComplete="email" autoFocus {...register('email')} />}
          </Field>
          <Field id="password" label="Password" error={fieldErrors.password?.message}>
            {(aria) => (
              <Input {...aria} type="password" autoComplete="current-password" {...register('password')} />
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
          <Button type="submit" disabled={submitting}>
            {submitting ? 'Signing in…' : 'Sign in'}
          </Button>
        </Form>
        {unverified ? (
          <ResendVerification email={form.getValues('email')} message={errors?.formError ?? ''} />
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
function ResendVerification({ email, message }: { email: string; message: string }) {
  const fetcher = useFetcher<typeof action>();
  const data = fetcher.data;
  const sent = data && 'resent' in data ? data.resent : null;
  const failed =
    data && 'errors' in data
      ? (data.errors.formError ?? Object.values(data.errors.fieldErrors)[0] ?? null)
      : null;
  useEffect(() => {
    if (sent) toast.success('Verification e-mail sent', { description: sent });
  }, [sent]);
  return (
    <Alert>
      <MailIcon aria-hidden="true" />
      <AlertTitle>{message}</AlertTitle>
      <AlertDescription>
        <p>Open the link in the e-mail we sent you. Did not get it?</p>
        <fetcher.Form method="post" action="/login?intent=resend" className="mt-2">
          <input type="hidden" name="email" value={email} />
          <Button type="submit" variant="outline" size="sm" disabled={fetcher.state !== 'idle'}>
            {fetcher.state !== 'idle' ? 'Sending…' : 'Resend verification e-mail'}
          </Button>
        </fetcher.Form>
        {sent ? <p className="text-success">{sent}</p> : null}
        {failed ? <p className="text-destructive">{failed}</p> : null}
      </AlertDescription>
    </Alert>
  );
}
