import { describe, expect, it } from 'vitest';
import { ZRegisterForm } from './accounts.ts';

/** The field errors a person sees, first one per field (as the form shows them). */
function errorsOf(input: Record<string, string>) {
  const parsed = ZRegisterForm.safeParse(input);
  const errors: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

describe('the registration form', () => {
  const email = 'ada@example.com';

  it('accepts matching passwords of 8 characters or more', () => {
    expect(errorsOf({ email, password: 'granite-49', confirm_password: 'granite-49' })).toEqual({});
  });

  it('points the confirmation at the mismatch, even when both passwords are too short', () => {
    expect(errorsOf({ email, password: 'short1', confirm_password: 'short2' })).toEqual({
      password: 'At least 8 characters',
      confirm_password: 'Passwords must match',
    });
    expect(errorsOf({ email, password: 'granite-49', confirm_password: 'granite-48' })).toEqual({
      confirm_password: 'Passwords must match',
    });
  });

  it('applies the password rules to a matching confirmation, and requires it', () => {
    expect(errorsOf({ email, password: 'short', confirm_password: 'short' })).toEqual({
      password: 'At least 8 characters',
      confirm_password: 'At least 8 characters',
    });
    expect(errorsOf({ email, password: 'granite-49', confirm_password: '' })).toEqual({
      confirm_password: 'Required',
    });
    expect(errorsOf({ email: '', password: '', confirm_password: '' })).toEqual({
      email: 'Required',
      password: 'Required',
      confirm_password: 'Required',
    });
  });
});
