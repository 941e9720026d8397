import { expect, PASSWORD, test } from './fixtures';

/**
 * Issue 26 in the browser: a sign-in slowed down after wrong passwords shows the form with the
 * reason; a crawler posting a form gets the form with its errors; redirectTo stays on this origin.
 * Each test names its own client address (the e2e server lists loopback in TRUST_PROXY).
 */
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
let nextIp = 1;
const clientIp = () => `192.0.2.${nextIp++}`;

test('wrong passwords slow sign-in down with a message on the form, and the owner gets in elsewhere', async ({
  page,
  api,
  allowConsoleError,
}) => {
  // Refused posts answer 400 (and the waiting one 400 with the reason), which the browser logs.
  allowConsoleError(/status of 4\d\d/);
  const user = await api.newUser('guessed');
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientIp() });
  await page.goto('/login');
  const email = page.getByLabel('Email');
  const password = page.getByLabel('Password');
  const waitMessage = page.getByText(
    /Too many failed attempts\. Try again in \d+ (second|seconds|minute|minutes)\./,
  );
  // Four free failures, then waits of 1, 2, 4 … s: a slow machine may see one more checked attempt.
  for (let i = 0; i < 9 && !(await waitMessage.isVisible()); i++) {
    await email.fill(user.email);
    await password.fill(`wrong-guess-${i}`);
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await page.waitForLoadState();
    if (i < 4) await expect(page.getByText('Invalid email or password')).toBeVisible();
  }
  await expect(waitMessage).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(email).toHaveValue(user.email);
  await expect(page.getByText('Internal Server Error')).toHaveCount(0);

  // The owner, from another address, signs in at once.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientIp() });
  await email.fill(user.email);
  await password.fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/applications|\/$/);
});

test('a crawler posting a form gets the form with its errors, also when slowed down', async ({ request }) => {
  const headers = { 'user-agent': GOOGLEBOT, 'x-forwarded-for': clientIp() };
  let last = '';
  for (let i = 0; i < 7; i++) {
    const res = await request.post('/login', {
      headers,
      form: { email: 'crawled@example.com', password: `wrong-guess-${i}` },
    });
    expect(res.status()).toBeLessThan(500);
    last = await res.text();
    expect(last).not.toContain('Internal Server Error');
    expect(last).toContain('<form');
    if (i === 0) expect(last).toContain('Invalid email or password');
  }
  expect(last).toMatch(/Too many failed attempts\. Try again in \d+ (second|seconds|minute|minutes)\./);
});

test('redirectTo with a TAB or backslash never leaves the origin', async ({ page, sharedUser, baseURL }) => {
  for (const target of ['/\t/evil.example', '/\\evil.example', '//evil.example']) {
    // Leave the signed-in page first: its background requests would meet a missing cookie (401).
    await page.goto('about:blank');
    await page.context().clearCookies();
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientIp() });
    await page.goto(`/login?redirectTo=${encodeURIComponent(target)}`);
    await page.getByLabel('Email').fill(sharedUser.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).not.toHaveURL(/\/login/);
    expect(new URL(page.url()).origin, JSON.stringify(target)).toBe(new URL(baseURL!).origin);
  }
});
