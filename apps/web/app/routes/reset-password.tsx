import { checkConfirmation, MESSAGES, ZPassword } from '@cairn/contracts/accounts';
import { Form, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import { z } from 'zod';
import { FormError } from '../components/form-error';
import { NewPasswordFields } from '../components/new-password-fields';
import { focusField } from '../components/public-form';
import { Alert, AlertDescription } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../components/ui/card';
import { apiFor } from '../lib/api.server';
import { apiFailure, parseForm } from '../lib/form-data.server';
import type { Route } from './+types/reset-password';

export const meta: Route.MetaFunction = () => [{ title: 'Choose a new password · Cairn' }];

/** The new password twice, like registration; the token comes from the e-mailed link. */
const resetPasswordForm = () =>
  z
    .object({
      token: z.string(),
      password: ZPassword,
      confirm_password: z.string({ error: MESSAGES.required }),
    })
    .superRefine(checkConfirmation);

export async function action(args: Route.ActionArgs) {
  const parsed = await parseForm(args.request, resetPasswordForm());
  if (!parsed.ok) return parsed.response;
  try {
    const { token, password } = parsed.value;
    await apiFor(args).post('/api/reset-password/', { token, password }, { auth: false });
    return redirect('/login?reset=1');
  } catch (error) {
    return apiFailure(error, ['password']);
  }
}

/** Works without JavaScript (the public pages ship none): errors come back from the action. */
export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigation = useNavigation();
  const submitting =
    navigation.state !== 'idle' && navigation.formAction?.startsWith('/reset-password') === true;
  const errors = actionData && 'errors' in actionData ? actionData.errors : null;
  const fieldErrors: Record<string, string> = errors?.fieldErrors ?? {};
  const focus = focusField(errors, ['password', 'confirm_password'], 'password');

  return (
    <Card>
      <CardHeader>
        <CardTitle>Choose a new password</CardTitle>
        <CardDescription>You will sign in with it afterwards.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {token ? (
          <Form method="post" noValidate className="grid gap-4">
            <input type="hidden" name="token" value={token} />
            <FormError message={errors?.formError} />
            <NewPasswordFields
              errors={{ password: fieldErrors.password, confirm: fieldErrors.confirm_password }}
              labels={['New password', 'Confirm new password']}
              focus={focus}
            />
            <Button type="submit" disabled={submitting}>
              {submitting ? 'Saving…' : 'Change password'}
            </Button>
          </Form>
        ) : (
          <Alert variant="destructive">
            <AlertDescription>This link has no reset token. Ask for a new link below.</AlertDescription>
          </Alert>
        )}
        {errors?.formError || !token ? (
          <p className="text-center text-sm">
            <Link to="/forgot-password" className="underline underline-offset-4">
              Send me a new reset link
            </Link>
          </p>
        ) : null}
      </CardContent>
      <CardFooter className="justify-center text-sm">
        <Link to="/login" className="text-muted-foreground underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </CardFooter>
    </Card>
  );
}
