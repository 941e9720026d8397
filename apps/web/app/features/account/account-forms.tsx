import { MailIcon } from '../../components/icons';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import type { User } from '../../lib/types';
import { useAccountForm } from './use-account-form';

/** First and last name, and the name visitors see on the owner's replies. */
export function ProfileCard({ user }: { user: User }) {
  const form = useAccountForm('profile');
  return (
    <Card>
      <form.fetcher.Form
        method="post"
        ref={form.formRef}
        className="flex flex-col gap-6"
        noValidate
        aria-labelledby="profile-title"
      >
        <CardHeader>
          <h2 id="profile-title" className="font-semibold text-lg leading-none">
            Profile
          </h2>
          <CardDescription>Your name, and the name visitors see when you reply to them.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <input type="hidden" name="intent" value="profile" />
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field id="first_name" label="First name" error={form.fieldError('first_name')}>
              {(aria) => (
                <Input {...aria} name="first_name" autoComplete="given-name" defaultValue={user.first_name} />
              )}
            </Field>
            <Field id="last_name" label="Last name" error={form.fieldError('last_name')}>
              {(aria) => (
                <Input {...aria} name="last_name" autoComplete="family-name" defaultValue={user.last_name} />
              )}
            </Field>
          </div>
          <Field
            id="display_name"
            label="Display name"
            error={form.fieldError('display_name')}
            description={`Shown to visitors on your replies in the widget, now “${user.public_name}”. Leave it empty to use your first name.`}
          >
            {(aria) => (
              <Input
                {...aria}
                name="display_name"
                autoComplete="nickname"
                defaultValue={user.display_name}
                placeholder={user.first_name || 'Support'}
              />
            )}
          </Field>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={form.busy}>
            {form.busy ? 'Saving…' : 'Save profile'}
          </Button>
        </CardFooter>
      </form.fetcher.Form>
    </Card>
  );
}

/** Moving the account to another address: confirmed by a link sent there, with the password. */
export function EmailCard({ email, pendingEmail }: { email: string; pendingEmail: string | null }) {
  const form = useAccountForm('email', 'email', true);
  return (
    <Card>
      <form.fetcher.Form
        method="post"
        ref={form.formRef}
        className="flex flex-col gap-6"
        noValidate
        aria-labelledby="email-title"
      >
        <CardHeader>
          <h2 id="email-title" className="font-semibold text-lg leading-none">
            E-mail address
          </h2>
          <CardDescription>
            You sign in with <span className="font-medium text-foreground break-all">{email}</span>. A new
            address takes effect once you open the link we send to it; we tell the current one too.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {pendingEmail ? (
            <Alert>
              <MailIcon aria-hidden="true" />
              <AlertDescription>
                <span>
                  Waiting for confirmation from <span className="font-medium break-all">{pendingEmail}</span>.
                  Open the link sent there; asking again sends a new one.
                </span>
              </AlertDescription>
            </Alert>
          ) : null}
          <input type="hidden" name="intent" value="email" />
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field id="new_email" label="New e-mail address" error={form.fieldError('email')}>
              {(aria) => <Input {...aria} name="email" type="email" autoComplete="email" />}
            </Field>
            <Field id="email_password" label="Current password" error={form.fieldError('password')}>
              {(aria) => <Input {...aria} name="password" type="password" autoComplete="current-password" />}
            </Field>
          </div>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" variant="secondary" disabled={form.busy}>
            {form.busy ? 'Sending…' : 'Send confirmation link'}
          </Button>
        </CardFooter>
      </form.fetcher.Form>
    </Card>
  );
}

/** A new password: the current one first; every other session ends. */
export function PasswordCard() {
  const form = useAccountForm('password', 'password', true);
  return (
    <Card>
      <form.fetcher.Form
        method="post"
        ref={form.formRef}
        className="flex flex-col gap-6"
        noValidate
        aria-labelledby="password-title"
      >
        <CardHeader>
          <h2 id="password-title" className="font-semibold text-lg leading-none">
            Password
          </h2>
          <CardDescription>
            Changing it signs out every other session and voids password reset links sent before.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <input type="hidden" name="intent" value="password" />
          <Field id="current_password" label="Current password" error={form.fieldError('current_password')}>
            {(aria) => (
              <Input {...aria} name="current_password" type="password" autoComplete="current-password" />
            )}
          </Field>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <Field
              id="new_password"
              label="New password"
              error={form.fieldError('new_password')}
              description="At least 8 characters."
            >
              {(aria) => <Input {...aria} name="new_password" type="password" autoComplete="new-password" />}
            </Field>
            <Field
              id="confirm_password"
              label="Confirm new password"
              error={form.fieldError('confirm_password')}
            >
              {(aria) => (
                <Input {...aria} name="confirm_password" type="password" autoComplete="new-password" />
              )}
            </Field>
          </div>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" variant="secondary" disabled={form.busy}>
            {form.busy ? 'Changing…' : 'Change password'}
          </Button>
        </CardFooter>
      </form.fetcher.Form>
    </Card>
  );
}
