import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

let n = 0;
const freshEmail = () => `person${++n}-${Date.now()}@example.com`;
const register = (body: Record<string, unknown>) => t.call('POST', '/api/register/', { json: body });
const tokenFromLink = (link: string) => new URL(link).searchParams.get('token')!;

describe('POST /api/register/', () => {
  it('creates the account with a trimmed, lower-cased e-mail and sends a verification link', async () => {
    const res = await register({ email: '  New.Person@Example.COM ', password: TEST_PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      email: 'new.person@example.com',
      username: 'new.person@example.com',
      detail: expect.stringMatching(/verify/),
    });
    const mail = await t.lastMail('new.person@example.com');
    expect(mail.subject).toBe('Verify your e-mail address');
    const link = mail.links.find((l) => l.startsWith(`${t.config.publicUrl}/verify-email?token=`));
    expect(link).toBeDefined();
    expect(mail.raw).toContain('Content-Transfer-Encoding: 7bit');
  });

  it('answers an address that has an account as a new one, and tells its owner instead', async () => {
    const { user } = await t.signUp();
    const fresh = freshEmail();
    const password = 'another-granite-77';
    const created = await register({ email: fresh, password });
    const existing = await register({ email: user.email.toUpperCase(), password });
    expect(existing.status).toBe(created.status);
    expect(existing.headers.get('content-type')).toBe(created.headers.get('content-type'));
    expect(JSON.stringify(existing.body).replaceAll(user.email, fresh)).toBe(JSON.stringify(created.body));

    const mail = await t.lastMail(user.email, 'Someone tried to create an account with your address');
    const link = mail.links.find((l) => l.startsWith(`${t.config.publicUrl}/reset-password?token=`))!;
    // The account is untouched: the old password still works, the one typed at registration does not.
    expect((await t.call('POST', '/api/login/', { json: { email: user.email, password } })).status).toBe(400);
    const reset = await t.call('POST', '/api/reset-password/', {
      json: { token: tokenFromLink(link), password: 'reset-granite-78' },
    });
    expect(reset.status).toBe(200);
    const login = await t.call('POST', '/api/login/', {
      json: { email: user.email, password: 'reset-granite-78' },
    });
    expect(login.status).toBe(200);
  });

  it.each([
    [{ password: TEST_PASSWORD }, 'email', 'Required'],
    [{ email: '', password: TEST_PASSWORD }, 'email', 'Required'],
    [{ email: 'not-an-address', password: TEST_PASSWORD }, 'email', 'Invalid email address'],
    [{ email: 'a@example.com' }, 'password', 'Required'],
    [{ email: 'a@example.com', password: 'short' }, 'password', 'At least 8 characters'],
    [{ email: 'a@example.com', password: 'x'.repeat(129) }, 'password', 'At most 128 characters'],
    [
      { email: 'a@example.com', password: 'password123' },
      'password',
      'This password is too common; choose a less guessable one',
    ],
  ])('rejects %j on %s with "%s"', async (body, field, message) => {
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(res.body.errors[field]).toEqual([message]);
  });

  it('creates nothing when the input is bad', async () => {
    await register({ email: 'half@example.com', password: 'short' });
    const { rows } = await t.database.query(
      `SELECT count(*)::int AS n FROM users WHERE email = 'half@example.com'`,
    );
    expect(rows[0]).toEqual({ n: 0 });
  });
});

describe('e-mail verification and login', () => {
  it('verifies once, then logs in; reuse, garbage and empty tokens are refused', async () => {
    const email = freshEmail();
    await register({ email, password: TEST_PASSWORD });
    const unverified = await t.call('POST', '/api/login/', { json: { email, password: TEST_PASSWORD } });
    expect(unverified.status).toBe(403);
    expect(unverified.body.code).toBe('email_not_verified');

    const token = tokenFromLink((await t.lastMail(email)).links[0]!);
    expect((await t.call('POST', '/api/verify-email/', { json: { token } })).status).toBe(200);
    const reused = await t.call('POST', '/api/verify-email/', { json: { token } });
    expect(reused.status).toBe(400);
    expect(reused.body.detail).toMatch(/already been used/);
    for (const bad of ['garbage', '', '   ']) {
      const res = await t.call('POST', '/api/verify-email/', { json: { token: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.body.detail).toMatch(/invalid/i);
    }
    expect((await t.call('POST', '/api/verify-email/', { json: {} })).status).toBe(400);

    const login = await t.call('POST', '/api/login/', {
      json: { email: ` ${email.toUpperCase()} `, password: TEST_PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.body.token.length).toBeGreaterThanOrEqual(22);
    expect(login.body.user.email).toBe(email);
  });

  it('refuses an expired verification link', async () => {
    const email = freshEmail();
    await register({ email, password: TEST_PASSWORD });
    const token = tokenFromLink((await t.lastMail(email)).links[0]!);
    await t.database.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
      [createHash('sha256').update(token).digest('hex')],
    );
    const res = await t.call('POST', '/api/verify-email/', { json: { token } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/expired/);
  });

  it('gives the same answer for a wrong password and an unknown address', async () => {
    const { user } = await t.signUp();
    const wrong = await t.call('POST', '/api/login/', {
      json: { email: user.email, password: 'not-the-password' },
    });
    const unknown = await t.call('POST', '/api/login/', {
      json: { email: 'nobody@example.com', password: 'whatever-it-is' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'Invalid email or password', code: 'invalid_credentials' });
    }
  });

  it('resends verification without revealing whether the address exists', async () => {
    const email = freshEmail();
    await register({ email, password: TEST_PASSWORD });
    await t.lastMail(email);
    const before = t.outbox().length;
    const known = await t.call('POST', '/api/verify-email/resend/', { json: { email } });
    const unknown = await t.call('POST', '/api/verify-email/resend/', {
      json: { email: 'ghost@example.com' },
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    await expect.poll(() => t.outbox().length, { timeout: 15_000 }).toBe(before + 1);
    const bad = await t.call('POST', '/api/verify-email/resend/', { json: { email: 'nope' } });
    expect(bad.status).toBe(400);
  });

  it('stores session tokens only as SHA-256 hashes', async () => {
    const { token } = await t.signUp();
    const { rows } = await t.database.query<{ token_hash: string }>('SELECT token_hash FROM auth_tokens');
    const hashes = rows.map((r) => r.token_hash);
    expect(hashes).toContain(createHash('sha256').update(token).digest('hex'));
    expect(hashes).not.toContain(token);
  });
});

describe('me and logout', () => {
  it('returns the profile, changes the names, and logs out at once', async () => {
    const { token, user } = await t.signUp();
    const me = await t.call('GET', '/api/me/', { token });
    expect(me.body).toEqual({
      id: user.id,
      email: user.email,
      username: user.email,
      first_name: '',
      last_name: '',
      name: '',
      display_name: '',
      public_name: 'Support',
      sender_identifier: `reg_${user.id}`,
    });
    const patched = await t.call('PATCH', '/api/me/', {
      token,
      json: { first_name: ' Ada ', last_name: 'Lovelace' },
    });
    expect(patched.body.name).toBe('Ada Lovelace');
    expect((await t.call('PATCH', '/api/me/', { token, json: { first_name: 'x'.repeat(151) } })).status).toBe(
      400,
    );
    expect((await t.call('POST', '/api/logout/', { token })).status).toBe(204);
    const after = await t.call('GET', '/api/me/', { token });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Token');
  });

  it('answers 401 for missing, malformed and unknown credentials', async () => {
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bearer abc' },
      { authorization: 'Token nope' },
    ];
    for (const headers of cases) {
      const res = await t.call('GET', '/api/me/', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Token');
    }
  });

  it('accepts the auth_token cookie, but refuses cookie-authenticated writes from another origin', async () => {
    const { token } = await t.signUp();
    const cookie = `auth_token=${token}`;
    expect((await t.call('GET', '/api/me/', { headers: { cookie } })).status).toBe(200);
    const foreign = await t.call('PATCH', '/api/me/', {
      headers: { cookie, origin: 'https://evil.example' },
      json: { first_name: 'Mallory' },
    });
    expect(foreign.status).toBe(403);
    const own = await t.call('PATCH', '/api/me/', {
      headers: { cookie, origin: t.url },
      json: { first_name: 'Own' },
    });
    expect(own.status).toBe(200);
    // A token in the header is not ambient authority: no origin check applies.
    const header = await t.call('PATCH', '/api/me/', {
      token,
      headers: { origin: 'https://other.example' },
      json: {},
    });
    expect(header.status).toBe(200);
  });
});

describe('password reset', () => {
  it('always answers 200, e-mails a single-use link, revokes sessions and confirms the change', async () => {
    const { token: session, user } = await t.signUp();
    const unknown = await t.call('POST', '/api/forgot-password/', { json: { email: 'ghost@example.com' } });
    const known = await t.call('POST', '/api/forgot-password/', { json: { email: user.email } });
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const mail = await t.lastMail(user.email, 'Reset your password');
    const link = mail.links.find((l) => l.startsWith(`${t.config.publicUrl}/reset-password?token=`))!;
    const token = tokenFromLink(link);

    const weak = await t.call('POST', '/api/reset-password/', { json: { token, password: 'short' } });
    expect(weak.body.errors.password).toEqual(['At least 8 characters']);
    const ok = await t.call('POST', '/api/reset-password/', {
      json: { token, password: 'new-granite-lantern-50' },
    });
    expect(ok.status).toBe(200);
    await t.lastMail(user.email, 'Your password was changed');
    expect((await t.call('GET', '/api/me/', { token: session })).status).toBe(401);
    const again = await t.call('POST', '/api/reset-password/', {
      json: { token, password: 'another-granite-51' },
    });
    expect(again.status).toBe(400);

    const oldLogin = await t.call('POST', '/api/login/', {
      json: { email: user.email, password: TEST_PASSWORD },
    });
    expect(oldLogin.status).toBe(400);
    const newLogin = await t.call('POST', '/api/login/', {
      json: { email: user.email, password: 'new-granite-lantern-50' },
    });
    expect(newLogin.status).toBe(200);
  });

  it('ends every session and every other reset link of the user', async () => {
    const { token: first, user } = await t.signUp();
    const second = (
      await t.call('POST', '/api/login/', { json: { email: user.email, password: TEST_PASSWORD } })
    ).body.token;
    const links: string[] = [];
    for (let i = 0; i < 3; i++) {
      await t.call('POST', '/api/forgot-password/', { json: { email: user.email } });
      await expect
        .poll(() => t.outbox().filter((m) => m.to === user.email).length, { timeout: 15_000 })
        .toBe(2 + i);
      links.push(tokenFromLink((await t.lastMail(user.email, 'Reset your password')).links[0]!));
    }
    // Another user's link is not theirs to end.
    const other = await t.signUp();
    await t.call('POST', '/api/forgot-password/', { json: { email: other.user.email } });
    const otherLink = tokenFromLink((await t.lastMail(other.user.email, 'Reset your password')).links[0]!);

    const used = await t.call('POST', '/api/reset-password/', {
      json: { token: links[1], password: 'fresh-granite-lantern-60' },
    });
    expect(used.status).toBe(200);
    for (const session of [first, second]) {
      expect((await t.call('GET', '/api/me/', { token: session })).status).toBe(401);
    }
    for (const token of [links[0], links[2]]) {
      const res = await t.call('POST', '/api/reset-password/', {
        json: { token, password: 'attacker-granite-61' },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_token');
    }
    const login = await t.call('POST', '/api/login/', {
      json: { email: user.email, password: 'fresh-granite-lantern-60' },
    });
    expect(login.status).toBe(200);
    const untouched = await t.call('POST', '/api/reset-password/', {
      json: { token: otherLink, password: 'other-granite-lantern-62' },
    });
    expect(untouched.status).toBe(200);
  });

  it('never matches an empty or missing token, and refuses an expired one', async () => {
    for (const json of [
      { token: '', password: 'new-granite-lantern-50' },
      { password: 'new-granite-lantern-50' },
    ]) {
      expect((await t.call('POST', '/api/reset-password/', { json })).status).toBe(400);
    }
    const { user } = await t.signUp();
    await t.call('POST', '/api/forgot-password/', { json: { email: user.email } });
    const token = tokenFromLink((await t.lastMail(user.email, 'Reset your password')).links[0]!);
    await t.database.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset_password'`,
    );
    const res = await t.call('POST', '/api/reset-password/', {
      json: { token, password: 'new-granite-lantern-50' },
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/expired/);
  });
});
