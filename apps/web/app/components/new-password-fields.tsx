import { Field } from './ui/field';
import { Input } from './ui/input';

/**
 * A new password and its confirmation, as registering and resetting a password both ask: plain
 * inputs of a form posted to the route's action (the public pages ship no JavaScript). `focus`
 * names the field to focus when the page renders (the first one with an error).
 */
export function NewPasswordFields({
  errors,
  labels = ['Password', 'Confirm password'],
  focus = null,
}: {
  errors: { password?: string | undefined; confirm?: string | undefined };
  labels?: [string, string];
  focus?: string | null;
}) {
  return (
    <>
      <Field id="password" label={labels[0]} error={errors.password}>
        {(aria) => (
          <Input
            {...aria}
            name="password"
            type="password"
            autoComplete="new-password"
            autoFocus={focus === 'password'}
          />
        )}
      </Field>
      <Field id="confirm_password" label={labels[1]} error={errors.confirm}>
        {(aria) => (
          <Input
            {...aria}
            name="confirm_password"
            type="password"
            autoComplete="new-password"
            autoFocus={focus === 'confirm_password'}
          />
        )}
      </Field>
    </>
  );
}
