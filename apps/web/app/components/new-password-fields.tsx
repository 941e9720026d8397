import { MESSAGES } from '@cairn/contracts/accounts';
import { Field } from './ui/field';
import { Input } from './ui/input';

/**
 * A new password and its confirmation, as registering and resetting a password both ask: plain
 * inputs of a form posted to the route's action (the public pages ship no JavaScript). The rule
 * shows under the password before anything is sent. `values` fills them in again after a failed
 * post; `focus` names the field to focus when the page renders (the first one with an error).
 */
export function NewPasswordFields({
  errors,
  values = {},
  labels = ['Password', 'Confirm password'],
  focus = null,
}: {
  errors: { password?: string | undefined; confirm?: string | undefined };
  values?: { password?: string | undefined; confirm?: string | undefined };
  labels?: [string, string];
  focus?: string | null;
}) {
  // The rule shows until an error takes its place.
  const rule = errors.password ? {} : { description: `${MESSAGES.passwordMin}.` };
  return (
    <>
      <Field id="password" label={labels[0]} error={errors.password} {...rule}>
        {(aria) => (
          <Input
            {...aria}
            name="password"
            type="password"
            autoComplete="new-password"
            defaultValue={values.password}
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
            defaultValue={values.confirm}
            autoFocus={focus === 'confirm_password'}
          />
        )}
      </Field>
    </>
  );
}
