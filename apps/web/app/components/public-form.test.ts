import { describe, expect, it } from 'vitest';
import { keptPasswords } from './public-form';

function post(fields: Record<string, string>) {
  const body = new URLSearchParams(fields);
  return new Request('http://localhost/register', { method: 'POST', body });
}

const posted = { email: 'ada@example.com', password: 'granite-49', confirm_password: 'granite-48' };
const errors = (fieldErrors: Record<string, string>) => ({ fieldErrors, formError: null });

describe('the passwords a failed registration fills in again', () => {
  it('keeps both when the error is elsewhere (the e-mail, a server error)', async () => {
    expect(await keptPasswords(post(posted), errors({ email: 'Invalid email address' }))).toEqual({
      password: 'granite-49',
      confirm_password: 'granite-48',
    });
    expect(
      await keptPasswords(post(posted), {
        fieldErrors: {},
        formError: 'Too many attempts. Try again later.',
      }),
    ).toEqual({ password: 'granite-49', confirm_password: 'granite-48' });
  });

  it('keeps the password when only its confirmation was refused', async () => {
    expect(await keptPasswords(post(posted), errors({ confirm_password: 'Passwords must match' }))).toEqual({
      password: 'granite-49',
    });
  });

  it('keeps neither when the password was refused: both are typed anew', async () => {
    expect(await keptPasswords(post(posted), errors({ password: 'At least 8 characters' }))).toEqual({});
  });

  it('leaves the request readable for the action', async () => {
    const request = post(posted);
    await keptPasswords(request, errors({}));
    expect((await request.formData()).get('email')).toBe('ada@example.com');
  });
});
