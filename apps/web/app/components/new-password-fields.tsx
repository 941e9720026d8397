import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { Field } from './ui/field';
import { Input } from './ui/input';

type NewPassword = { password: string; confirm_password: string };

/**
 * A new password and its confirmation, as registering and resetting a password both ask. Fields are
 * registered as they render, after the fields above them, so a failed submit focuses the first one.
 */
export function NewPasswordFields<T extends FieldValues & NewPassword>({
  register,
  errors,
  labels = ['Password', 'Confirm password'],
  autoFocus = false,
}: {
  register: UseFormRegister<T>;
  errors: { password?: string | undefined; confirm?: string | undefined };
  labels?: [string, string];
  autoFocus?: boolean;
}) {
  // Both names are keys of T by its constraint; TypeScript cannot narrow Path<T> for a generic T.
  const field = (name: keyof NewPassword) => register(name as Path<T>);
  return (
    <>
      <Field id="password" label={labels[0]} error={errors.password}>
        {(aria) => (
          <Input
            {...aria}
            type="password"
            autoComplete="new-password"
            autoFocus={autoFocus}
            {...field('password')}
          />
        )}
      </Field>
      <Field id="confirm_password" label={labels[1]} error={errors.confirm}>
        {(aria) => (
          <Input {...aria} type="password" autoComplete="new-password" {...field('confirm_password')} />
        )}
      </Field>
    </>
  );
}
