import { ZEmailRequest } from '@cairn/contracts/accounts';
import { Form, Link, useNavigation } from 'react-router';
import { FormError } from '../components/form-error';
import { MailCheckIcon } from '../components/icons';
import { focusField, postedEmail, withEmail } from '../components/public-form';
import { Alert, AlertDescription } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../components/ui/card';
import { Field } from '../components/ui/field';
import { Input } from '../components/ui/input';
import { apiFor } from '../lib/api.server';
import { apiFailure, parseForm } from '../lib/form-data.server';
import type { Route } from './+types/forgot-password';

export const meta: Route.MetaFunction = () => [{ title: 'Forgot password · Cairn' }];

export async function action(args: Route.ActionArgs) {
  const posted = await postedEmail(args.request);
  const parsed = await parseForm(args.request, ZEmailRequest);
  if (!parsed.ok) return withEmail(parsed.response, posted);
  try {
    const answer = await apiFor(args).post<{ detail: string }>('/api/forgot-password/', parsed.value, {
      auth: false,
    });
    return { sent: answer.detail };
  } catch (error) {
    return withEmail(apiFailure(error, ['email']), posted);
  }
}

/** Works without JavaScript (the public pages ship none): errors come back from the action. */
export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting =
    navigation.state !== 'idle' && navigation.formAction?.startsWith('/forgot-password') === true;
  const errors = actionData && 'errors' in actionData ? actionData.errors : null;
  const sent = actionData && 'sent' in actionData ? actionData.sent : null;
  const email = actionData && 'email' in actionData ? actionData.email : '';
  const focus = focusField(errors, ['email'], 'email');

  return (
    <Card>
      <CardHeader>
        <CardTitle>Forgot your password?</CardTitle>
        <CardDescription>
          Enter your e-mail address and we will send you a link to choose a new one.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sent ? (
          <Alert variant="success" role="status">
            <MailCheckIcon aria-hidden="true" />
            <AlertDescription>{sent}</AlertDescription>
          </Alert>
        ) : (
          <Form method="post" noValidate className="grid gap-4">
            <FormError message={errors?.formError} />
            <Field id="email" label="Email" error={errors?.fieldErrors.email}>
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
            <Button type="submit" disabled={submitting}>
              {submitting ? 'Sending…' : 'Send reset link'}
            </Button>
          </Form>
        )}
      </CardContent>
      <CardFooter className="justify-center text-sm">
        <Link to="/login" className="text-muted-foreground underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </CardFooter>
    </Card>
  );
}
