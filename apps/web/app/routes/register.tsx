import { ZRegisterForm } from '@cairn/contracts/accounts';
import { Form, Link, useNavigation } from 'react-router';
import { FormError } from '../components/form-error';
import { MailCheckIcon } from '../components/icons';
import { NewPasswordFields } from '../components/new-password-fields';
import { focusField, keptPasswords, postedEmail, withEmailAndPasswords } from '../components/public-form';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../components/ui/card';
import { Field } from '../components/ui/field';
import { Input } from '../components/ui/input';
import { apiFor } from '../lib/api.server';
import { apiFailure, parseForm } from '../lib/form-data.server';
import type { Route } from './+types/register';

export const meta: Route.MetaFunction = () => [{ title: 'Create an account · Cairn' }];

export async function action(args: Route.ActionArgs) {
  const posted = await postedEmail(args.request);
  const request = args.request.clone();
  const failed = async (failure: ReturnType<typeof apiFailure>) =>
    withEmailAndPasswords(failure, posted, await keptPasswords(request, failure.data.errors));
  const parsed = await parseForm(args.request, ZRegisterForm);
  if (!parsed.ok) return failed(parsed.response);
  const { email, password } = parsed.value;
  try {
    // The specification sends the e-mail as the username too.
    await apiFor(args).post('/api/register/', { email, username: email, password }, { auth: false });
    return { registered: email };
  } catch (error) {
    return failed(apiFailure(error, ['email', 'password', 'confirm_password']));
  }
}

/** Works without JavaScript (the public pages ship none): errors come back from the action. */
export default function Register({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formAction?.startsWith('/register') === true;
  const errors = actionData && 'errors' in actionData ? actionData.errors : null;
  const registered = actionData && 'registered' in actionData ? actionData.registered : null;
  const fieldErrors: Record<string, string> = errors?.fieldErrors ?? {};
  const email = actionData && 'email' in actionData ? actionData.email : '';
  const passwords = actionData && 'passwords' in actionData ? actionData.passwords : {};
  const focus = focusField(errors, ['email', 'password', 'confirm_password'], 'email');

  if (registered) {
    return (
      <Card>
        <CardHeader>
          <div className="mb-2 flex size-10 items-center justify-center rounded-full bg-muted [&_svg]:size-5">
            <MailCheckIcon aria-hidden="true" />
          </div>
          <CardTitle>Check your inbox</CardTitle>
          <CardDescription role="status">
            We sent an e-mail with a link to <strong className="text-foreground">{registered}</strong>. Verify
            your e-mail address before logging in.
          </CardDescription>
        </CardHeader>
        <CardFooter>
          <Button asChild className="w-full">
            <Link to="/login">Go to sign in</Link>
          </Button>
        </CardFooter>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Create an account</CardTitle>
        <CardDescription>Build assistants that answer from your own knowledge.</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" noValidate className="grid gap-4">
          <FormError message={errors?.formError} />
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
          <NewPasswordFields
            errors={{ password: fieldErrors.password, confirm: fieldErrors.confirm_password }}
            values={{ password: passwords.password, confirm: passwords.confirm_password }}
            focus={focus}
          />
          <Button type="submit" disabled={submitting}>
            {submitting ? 'Creating account…' : 'Create account'}
          </Button>
        </Form>
      </CardContent>
      <CardFooter className="justify-center text-sm text-muted-foreground">
        <span>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-foreground underline underline-offset-4">
            Sign in
          </Link>
        </span>
      </CardFooter>
    </Card>
  );
}
