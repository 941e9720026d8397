import type { Mail } from './mail.ts';

export const TEST_PASSWORD = 'granite-lantern-49';

/** A JSON request to the API: what the sign-up needs of a test's HTTP client. */
export type JsonCall = (
  method: string,
  pathname: string,
  options: { json: unknown; headers?: Record<string, string> },
) => Promise<{ status: number; body: unknown }>;

export interface SignedUp {
  token: string;
  user: { id: number; email: string };
}

type LastMail = (to: string, subject: string) => Promise<Mail>;

/** Registers `email` (201, or it throws); `headers` go with the request (the e2e's own client address). */
export async function register(
  call: JsonCall,
  email: string,
  password = TEST_PASSWORD,
  headers: Record<string, string> = {},
) {
  const reg = await call('POST', '/api/register/', { json: { email, username: email, password }, headers });
  if (reg.status !== 201) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
}

/** Follows the link of the newest verification e-mail to `email`. */
export async function verifyThroughMail(call: JsonCall, lastMail: LastMail, email: string) {
  const link = (await lastMail(email, 'Verify your e-mail address')).links.find((l) =>
    l.includes('/verify-email?token='),
  );
  const token = new URL(link!).searchParams.get('token');
  const verified = await call('POST', '/api/verify-email/', { json: { token } });
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
}

export async function logIn(
  call: JsonCall,
  email: string,
  password = TEST_PASSWORD,
  headers: Record<string, string> = {},
): Promise<SignedUp> {
  const login = await call('POST', '/api/login/', { json: { email, password }, headers });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return login.body as SignedUp;
}

/**
 * Registers, verifies through the e-mailed link and logs in, as a person would: the one sign-up of
 * the in-process test app, the server process, the e2e fixtures and the benches.
 */
export async function signUpThroughMail(
  call: JsonCall,
  lastMail: LastMail,
  email: string,
  password = TEST_PASSWORD,
  headers: Record<string, string> = {},
): Promise<SignedUp> {
  await register(call, email, password, headers);
  await verifyThroughMail(call, lastMail, email);
  return logIn(call, email, password, headers);
}
