import { ZEmailRequest } from '@cairn/contracts/accounts';
import { data, Form, Link, useNavigation } from 'react-router';
import { CircleCheckIcon, CircleXIcon } from '../components/icons';
import { focusField, postedEmail, withEmail } from '../components/public-form';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../components/ui/card';
import { Field } from '../components/ui/field';
import { Input } from '../components/ui/input';
import { apiFor } from '../lib/api.server';
import { normalizeError } from '../lib/api-error';
import { apiFailure, parseForm } from '../lib/form-data.server';
import type { Route } from './+types/verify-email';

export const meta: Route.MetaFunction = () => [{ title: 'Verify your e-mail · Cairn' }];

/** Opening the e-mailed link verifies the address (the token is single-use and expires). */
export async function loader(args: Route.LoaderArgs) {
  const token = new URL(args.request.url).searchParams.get('token');
  if (!token)
    return data({ ok: false as const, message: 'This link has no verification token.' }, { status: 400 });
  try {
    const answer = await apiFor(args).post<{ detail: string }>(
      '/api/verify-email/',
      { token },
      { auth: false },
    );
    return { ok: true as const, message: answer.detail };
  } catch (error) {
    const e = normalizeError(error);
    return data(
      { ok: false as const, message: e.message },
      { status: e.status && e.status < 500 ? 400 : 500 },
    );
  }
}

export async function action(args: Route.ActionArgs) {
  const posted = await postedEmail(args.request);
  const parsed = await parseForm(args.request, ZEmailRequest);
  if (!parsed.ok) return withEmail(parsed.response, posted);
  try {
    const answer = await apiFor(args).post<{ detail: string }>('/api/verify-email/resend/', parsed.value, {
      auth: false,
    });
    return { resent: answer.detail, email: posted };
  } catch (error) {
    return withEmail(apiFailure(error, ['email']), posted);
  }
}

/** Works without JavaScript (the public pages ship none): the resend form posts to the action. */
export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Card>
      <CardHeader>
        <div
          className={`mb-2 flex size-10 items-center justify-center rounded-full [&_svg]:size-5 ${loaderData.ok ? 'bg-success/15 text-success' : 'bg-destructive/15 text-destructive'}`}
        >
          {loaderData.ok ? <CircleCheckIcon aria-hidden="true" /> : <CircleXIcon aria-hidden="true" />}
        </div>
        <CardTitle>{loaderData.ok ? 'E-mail verified' : 'Verification failed'}</CardTitle>
        <CardDescription>{loaderData.message}</CardDescription>
      </CardHeader>
      {loaderData.ok ? null : (
        <CardContent>
          <ResendForm result={actionData} />
        </CardContent>
      )}
      <CardFooter>
        <Button asChild className="w-full" variant={loaderData.ok ? 'default' : 'outline'}>
          <Link to="/login">Go to sign in</Link>
        </Button>
      </CardFooter>
    </Card>
  );
}

function ResendForm({ result }: { result: Route.ComponentProps['actionData'] }) {
  const navigation = useNavigation();
  const errors = result && 'errors' in result ? result.errors : null;
  const resent = result && 'resent' in result ? result.resent : null;
  const email = result?.email ?? '';
  if (resent)
    return (
      <p className="text-sm text-success" role="status">
        {resent}
      </p>
    );
  return (
    <Form method="post" noValidate className="grid gap-3">
      <p className="text-sm text-muted-foreground">Ask for a new link:</p>
      <Field id="email" label="Email" error={errors?.fieldErrors.email ?? errors?.formError ?? undefined}>
        {(aria) => (
          <Input
            {...aria}
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={email}
            autoFocus={focusField(errors, ['email'], null) === 'email'}
          />
        )}
      </Field>
      <Button type="submit" variant="secondary" disabled={navigation.state !== 'idle'}>
        {navigation.state !== 'idle' ? 'Sending…' : 'Send a new verification link'}
      </Button>
    </Form>
  );
}
