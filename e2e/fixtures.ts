import { createRequire } from 'node:module';
import { test as base, expect, type Page } from '@playwright/test';
import { newTestEmail } from '../apps/api/src/testing/running-cairn';
import {
  type JsonCall,
  logIn,
  register as registerAccount,
  signUpThroughMail,
  TEST_PASSWORD,
  verifyThroughMail,
} from '../apps/api/src/testing/sign-up';
import { type RunningServer, startServer } from './server';

const require = createRequire(import.meta.url);

/** Waits until nothing fades or slides any more: axe measures colours as they are painted. */
export async function settled(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}
/** axe-core's source, injected into the page (no @axe-core/playwright: it needs Node 22). */
const AXE_SOURCE: string = require('axe-core').source;

export const PASSWORD = TEST_PASSWORD;

export interface Application {
  uuid: string;
  name: string;
}

export interface TestUser {
  email: string;
  password: string;
  token: string;
  createApplication(name: string): Promise<Application>;
}

/**
 * Each test user gets its own client address (the e2e server lists loopback in TRUST_PROXY), so the API's
 * per-IP limits on registration apply per simulated person rather than to the whole suite.
 */
function clientIpFor(email: string): string {
  let h = 0;
  for (const ch of email) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `10.${(h >>> 16) & 255}.${(h >>> 8) & 255}.${h & 255}`;
}

/** Talks to the API directly, as a client would (never through the database). */
export function apiHelpers(server: RunningServer) {
  async function call<T>(
    method: string,
    pathname: string,
    opts: { token?: string; json?: unknown; form?: FormData; clientIp?: string } = {},
  ) {
    const headers: Record<string, string> = {};
    if (opts.clientIp) headers['x-forwarded-for'] = opts.clientIp;
    if (opts.token) headers.authorization = `Token ${opts.token}`;
    let body: string | FormData | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) body = opts.form;
    const res = await fetch(server.url + pathname, { method, headers, body });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  /** The shared sign-up steps' view of `call`: their headers carry this person's client address. */
  const jsonCall: JsonCall = (method, pathname, { json, headers }) =>
    call(method, pathname, { json, clientIp: headers?.['x-forwarded-for'] });
  const as = (email: string) => ({ 'x-forwarded-for': clientIpFor(email) });

  const register = (email: string, password = PASSWORD) =>
    registerAccount(jsonCall, email, password, as(email));
  const verify = (email: string) => verifyThroughMail(jsonCall, server.lastMail, email);
  const login = async (email: string, password = PASSWORD) =>
    (await logIn(jsonCall, email, password, as(email))).token;

  function userFor(email: string, password: string, token: string): TestUser {
    return {
      email,
      password,
      token,
      async createApplication(name) {
        const form = new FormData();
        form.set('name', name);
        const res = await call<Application>('POST', '/api/applications/', { token, form });
        if (res.status !== 201) throw new Error(`create application failed: ${JSON.stringify(res.body)}`);
        return res.body;
      },
    };
  }

  /** Registers, verifies through the e-mailed link and logs in. Registration is rate-limited per IP: use sparingly. */
  async function newUser(prefix = 'user'): Promise<TestUser> {
    const email = uniqueEmail(prefix);
    const { token } = await signUpThroughMail(jsonCall, server.lastMail, email, PASSWORD, as(email));
    return userFor(email, PASSWORD, token);
  }

  return { call, register, verify, login, newUser, userFor };
}

export const uniqueEmail = newTestEmail;

interface WorkerFixtures {
  server: RunningServer;
  /** One verified user per worker, with a token; tests that must not share state make their own. */
  sharedUser: TestUser;
}

interface TestFixtures {
  api: ReturnType<typeof apiHelpers>;
  /** Puts the user's token in the browser's auth_token cookie (default: the shared user). */
  signIn: (user?: TestUser) => Promise<TestUser>;
  /**
   * A new verified owner (e-mail `<prefix>-…`), signed in in this test's browser, with one application
   * named `application`: the preamble of most specs. `theme` is put in the browser's theme cookie.
   */
  ownerWithApplication: (
    prefix: string,
    application: string,
    options?: { theme?: string },
  ) => Promise<{ user: TestUser; app: Application }>;
  /**
   * Runs axe-core on the page; fails on serious or critical violations (with `soft`, the test goes
   * on and fails at its end, so one run lists every page's violations).
   */
  checkA11y: (page?: Page, options?: { soft?: boolean }) => Promise<void>;
  /** Declares a console.error the test expects; any other one fails the test. */
  allowConsoleError: (pattern: RegExp) => void;
  consoleAllow: RegExp[];
  consoleGuard: undefined;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  sharedUser: [
    async ({ server }, use) => {
      await use(await apiHelpers(server).newUser('shared'));
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
  api: async ({ server }, use) => {
    await use(apiHelpers(server));
  },
  signIn: async ({ context, sharedUser, server }, use) => {
    await use(async (user = sharedUser) => {
      await context.addCookies([
        { name: 'auth_token', value: user.token, url: server.url, httpOnly: true, sameSite: 'Lax' },
      ]);
      return user;
    });
  },
  ownerWithApplication: async ({ api, signIn, context, server }, use) => {
    await use(async (prefix, application, { theme } = {}) => {
      if (theme) await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
      const user = await signIn(await api.newUser(prefix));
      return { user, app: await user.createApplication(application) };
    });
  },
  checkA11y: async ({ page }, use) => {
    await use(async (target = page, { soft = false } = {}) => {
      // Evaluated over the DevTools protocol, so the page's CSP (rightly) does not block it.
      await target.evaluate(AXE_SOURCE);
      const run = async () => {
        await settled(target);
        return target.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: any[] }> } })
            .axe;
          const result = await axe.run({ resultTypes: ['violations'] });
          return result.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => ({
              id: v.id,
              impact: v.impact,
              help: v.help,
              nodes: v.nodes
                .map((n: { target: unknown; failureSummary?: string }) => [n.target, n.failureSummary])
                .slice(0, 5),
            }));
        });
      };
      let violations = await run();
      // A toast that mounted while axe ran is measured half faded in (CI saw a Sonner toast's title and
      // button "fail" contrast that way). A real violation is still there once it has settled.
      if (violations.length > 0) violations = await run();
      (soft ? expect.soft : expect)(violations, `axe violations on ${target.url()}`).toEqual([]);
    });
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form
  consoleAllow: async ({}, use) => {
    await use([]);
  },
  allowConsoleError: async ({ consoleAllow }, use) => {
    await use((pattern) => {
      consoleAllow.push(pattern);
    });
  },
  consoleGuard: [
    async ({ page, consoleAllow }, use) => {
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        // A form answered 400/403 to a React Router data request: the browser logs the status, the
        // test asserts what the page shows. Any other console error counts.
        if (/\.data(\?|$)/.test(msg.location().url) && /status of 4\d\d/.test(msg.text())) return;
        errors.push(msg.text());
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      await use(undefined);
      const unexpected = errors.filter((e) => !consoleAllow.some((p) => p.test(e)));
      expect(unexpected, 'unexpected console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
