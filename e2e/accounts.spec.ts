import { expect, PASSWORD, test, uniqueEmail } from './fixtures';
import { expectNoSidewaysScroll, shoot } from './look';

test.describe('registration', () => {
  test('shows each validation message on its field', async ({ page, checkA11y, allowConsoleError }) => {
    // The public pages post plain forms: a refused post is a 400 (403: not verified) page, which the browser logs.
    allowConsoleError(/status of 40[03]/);
    await page.goto('/register');
    const email = page.getByLabel('Email');
    const password = page.getByLabel('Password', { exact: true });
    const confirm = page.getByLabel('Confirm password');
    const submit = page.getByRole('button', { name: 'Create account' });
    // The rule shows before anything is sent.
    await expect(password).toHaveAccessibleDescription('At least 8 characters.');

    await submit.click();
    await expect(page.locator('#email-error')).toHaveText('Required');
    await expect(page.locator('#password-error')).toHaveText('Required');
    await expect(page.locator('#confirm_password-error')).toHaveText('Required');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toBeFocused();

    await email.fill('not-an-address');
    await password.fill('short');
    await confirm.fill('short');
    await submit.click();
    await expect(page.locator('#email-error')).toHaveText('Invalid email address');
    await expect(page.locator('#password-error')).toHaveText('At least 8 characters');
    await expect(page.locator('#confirm_password-error')).toHaveText('At least 8 characters');
    // The error takes the rule's place; a refused password is typed anew, with its confirmation.
    await expect(password).toHaveAccessibleDescription('At least 8 characters');
    await expect(password).toHaveValue('');
    await expect(confirm).toHaveValue('');

    // Two different short passwords: the confirmation points at the mismatch.
    await password.fill('short1');
    await confirm.fill('short2');
    await submit.click();
    await expect(page.locator('#password-error')).toHaveText('At least 8 characters');
    await expect(page.locator('#confirm_password-error')).toHaveText('Passwords must match');

    // An error elsewhere keeps both passwords.
    await password.fill(PASSWORD);
    await confirm.fill(PASSWORD);
    await submit.click();
    await expect(page.locator('#email-error')).toHaveText('Invalid email address');
    await expect(password).toHaveValue(PASSWORD);
    await expect(confirm).toHaveValue(PASSWORD);

    // A refused confirmation alone keeps the password.
    await email.fill('someone@example.com');
    await confirm.fill(`${PASSWORD}x`);
    await submit.click();
    await expect(page.locator('#email-error')).toHaveCount(0);
    await expect(page.locator('#password-error')).toHaveCount(0);
    await expect(page.locator('#confirm_password-error')).toHaveText('Passwords must match');
    await expect(password).toHaveValue(PASSWORD);
    await expect(confirm).toHaveValue('');
    await expect(confirm).toBeFocused();
    await checkA11y();
    for (const mode of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: mode });
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoSidewaysScroll(page);
        await shoot(page, 'register-kept-passwords');
      }
    }
  });

  test('a backend field error lands on its field', async ({ page, allowConsoleError }) => {
    // The public pages post plain forms: a refused post is a 400 (403: not verified) page, which the browser logs.
    allowConsoleError(/status of 40[03]/);
    // Long enough for the browser's rules; the API refuses it as too common, on errors.password.
    await page.goto('/register');
    await page.getByLabel('Email').fill(uniqueEmail('common'));
    await page.getByLabel('Password', { exact: true }).fill('password123');
    await page.getByLabel('Confirm password').fill('password123');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.locator('#password-error')).toHaveText(
      'This password is too common; choose a less guessable one',
    );
    // The e-mail stays; the refused password (and so its confirmation) is typed anew.
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Confirm password')).toHaveValue('');
  });

  test('an address that has an account is answered like a new one; its owner gets an e-mail', async ({
    page,
    sharedUser,
    server,
  }) => {
    await page.goto('/register');
    await page.getByLabel('Email').fill(sharedUser.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    const mail = await server.lastMail(
      sharedUser.email,
      'Someone tried to create an account with your address',
    );
    expect(mail.links.some((l) => l.includes('/reset-password?token='))).toBe(true);
  });

  test('register, verify through the e-mailed link, sign in, create the first application', async ({
    page,
    server,
    checkA11y,
    allowConsoleError,
  }) => {
    // Opening a used verification link answers 400; the browser logs that status.
    allowConsoleError(/status of 400/);
    const email = uniqueEmail('newcomer');
    await page.goto('/register');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    // The page (no JavaScript on the public pages) tells the user to verify by e-mail before logging in.
    await expect(page.getByText(/Verify your e-mail address before logging in/).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

    const mail = await server.lastMail(email);
    const link = mail.links.find((l) => l.includes('/verify-email?token='));
    expect(link).toBeTruthy();
    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'E-mail verified' })).toBeVisible();
    await checkA11y();

    // The link is single-use: opening it again is a clear failure with a way to get a new one.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Verification failed' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send a new verification link' })).toBeVisible();

    await page.getByRole('link', { name: 'Go to sign in' }).click();
    // The failure page has its own e-mail field (for a new link): fill the sign-in form only once it is shown.
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // No applications yet: the onboarding screen.
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Cairn' })).toBeVisible();
    // The sign-in cookie lasts as long as a session may (SESSION_MAX_DAYS, 365 by default), not 30 days:
    // the API ends a session that sits unused for SESSION_IDLE_DAYS.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'auth_token');
    const daysLeft = (cookie!.expires - Date.now() / 1000) / 86_400;
    expect(daysLeft).toBeGreaterThan(364);
    expect(daysLeft).toBeLessThanOrEqual(365);
    await checkA11y();

    await page.getByRole('main').getByRole('button', { name: 'Create application' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create application' });
    await expect(dialog).toBeVisible();
    const name = dialog.getByLabel('Name');
    await expect(name).toBeFocused();
    await dialog.getByRole('button', { name: 'Create application' }).click();
    await expect(dialog.locator('#application-name-error')).toHaveText('Required');
    await name.fill('   ');
    await dialog.getByRole('button', { name: 'Create application' }).click();
    await expect(dialog.locator('#application-name-error')).toHaveText('Required');
    await name.fill('x'.repeat(256));
    await dialog.getByRole('button', { name: 'Create application' }).click();
    await expect(dialog.locator('#application-name-error')).toHaveText('At most 255 characters');
    await name.fill('Support assistant');
    await dialog.getByRole('button', { name: 'Create application' }).click();

    await expect(page).toHaveURL(/\/applications\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Support assistant' })).toBeVisible();
    // Added to the list and selected in the switcher.
    await expect(page.getByRole('button', { name: /^Application Support assistant/ })).toBeVisible();

    // `/` now lists it.
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Support assistant' })).toBeVisible();
  });
});

test.describe('sign in', () => {
  test('validation messages, then a wrong password as a form-level error', async ({
    page,
    sharedUser,
    allowConsoleError,
  }) => {
    // The public pages post plain forms: a refused post is a 400 (403: not verified) page, which the browser logs.
    allowConsoleError(/status of 40[03]/);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#email-error')).toHaveText('Required');
    await expect(page.locator('#password-error')).toHaveText('Required');
    // The public pages ship no JavaScript: the action checks the form and answers with the page.
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#email-error')).toHaveText('Invalid email address');
    await expect(page.getByLabel('Email')).toHaveValue('not-an-address');
    await page.getByLabel('Email').fill(sharedUser.email);
    await page.getByLabel('Password').fill('wrong-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('[data-form-error]')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an unverified account is offered a new verification e-mail', async ({
    page,
    api,
    server,
    allowConsoleError,
  }) => {
    // The public pages post plain forms: a refused post is a 400 (403: not verified) page, which the browser logs.
    allowConsoleError(/status of 40[03]/);
    const email = uniqueEmail('unverified');
    await api.register(email);
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Verify your e-mail address before logging in')).toBeVisible();

    const before = (await server.lastMail(email)).links[0];
    await page.getByRole('button', { name: 'Resend verification e-mail' }).click();
    await expect(page.getByText(/a new link is on its way/).first()).toBeVisible();
    await expect
      .poll(async () => (await server.lastMail(email)).links[0], { timeout: 15_000 })
      .not.toBe(before);

    // The new link works.
    const link = (await server.lastMail(email)).links.find((l) => l.includes('/verify-email?token='));
    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'E-mail verified' })).toBeVisible();
  });
});

test.describe('password reset', () => {
  test('forgot → e-mailed link → new password → sign in with it', async ({
    page,
    api,
    server,
    checkA11y,
    allowConsoleError,
  }) => {
    // The public pages post plain forms: a refused post is a 400 (403: not verified) page, which the browser logs.
    allowConsoleError(/status of 40[03]/);
    const user = await api.newUser('forgetful');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.locator('#email-error')).toHaveText('Required');
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(/a link to reset the password is on its way/)).toBeVisible();
    await checkA11y();

    const mail = await server.lastMail(user.email, 'Reset your password');
    const link = mail.links.find((l) => l.includes('/reset-password?token='));
    expect(link).toBeTruthy();
    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.locator('#password-error')).toHaveText('At least 8 characters');
    await page.getByLabel('New password', { exact: true }).fill('basalt-harbour-77');
    await page.getByLabel('Confirm new password').fill('basalt-harbour-77');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page).toHaveURL(/\/login\?reset=1$/);
    await expect(page.getByText('Your password was changed. Sign in with the new one.')).toBeVisible();

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('basalt-harbour-77');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Cairn' })).toBeVisible();

    // The reset link was single-use. Leave the signed-in page first: a request it still makes (the
    // bell refreshes when its socket connects) would get a 401 once the cookie is gone.
    await page.goto('about:blank');
    await page.context().clearCookies();
    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill('another-pass-88');
    await page.getByLabel('Confirm new password').fill('another-pass-88');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.locator('[data-form-error]')).toHaveText(/This link has already been used/);
    await expect(page.getByRole('link', { name: 'Send me a new reset link' })).toBeVisible();
  });

  test('a verify link without a token fails clearly', async ({ page, allowConsoleError }) => {
    allowConsoleError(/status of 400/);
    const res = await page.goto('/verify-email');
    expect(res?.status()).toBe(400);
    await expect(page.getByRole('heading', { name: 'Verification failed' })).toBeVisible();
    await expect(page.getByText('This link has no verification token.')).toBeVisible();
  });
});
