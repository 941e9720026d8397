import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '@cairn/db/client';
import { openTestDatabase } from '@cairn/db/testing';
import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { DEFAULT_AUTH_RATE_LIMITS } from '../modules/accounts/routes.ts';
import {
  ACCOUNT_MAIL_QUEUE,
  type AccountMailJob,
  sendAccountMailJob,
} from '../modules/accounts/send-account-mail.ts';
import { DEFAULT_PARSE_LIMITS } from '../rag/parse/parse-limits.ts';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string | undefined;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Raw body (sent as-is, e.g. malformed JSON). */
  raw?: string;
}

export interface TestApp {
  app: FastifyInstance;
  url: string;
  config: Config;
  database: Database;
  call<T = any>(method: string, pathname: string, options?: CallOptions): Promise<TestResponse<T>>;
  /** E-mails written to the outbox, oldest first. */
  outbox(): Mail[];
  /**
   * The last e-mail to `to`, waiting for it briefly; with `subject`, waits until the last one has it
   * (account mail is sent by a job, after the response).
   */
  lastMail(to: string, subject?: string): Promise<Mail>;
  /** Registers, verifies through the e-mailed link and logs in, as a person would. */
  signUp(email?: string, password?: string): Promise<{ token: string; user: { id: number; email: string } }>;
  close(): Promise<void>;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  links: string[];
  raw: string;
}

export const TEST_PASSWORD = 'granite-lantern-49';

/**
 * Every request of a test comes from 127.0.0.1, so per-IP limits would trip across unrelated tests;
 * per-account limits stay as in production. `rate-limits.test.ts` checks the real defaults.
 */
const RELAXED_IP_LIMITS = Object.fromEntries(
  Object.entries(DEFAULT_AUTH_RATE_LIMITS).map(([action, l]) => [
    action,
    { ...l, perIp: { max: 100_000, windowSeconds: 60 } },
  ]),
) as typeof DEFAULT_AUTH_RATE_LIMITS;

/** Builds the real app on a cloned test database and listens on 127.0.0.1 at a free port. */
export async function startTestApp(
  overrides: Partial<Config> = {},
  build: Partial<BuildOptions> & { beforeListen?: (app: FastifyInstance) => void } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-test-'));
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    smtpUrl: undefined,
    mailFrom: 'Cairn <no-reply@cairn.test>',
    secretKey: randomBytes(32).toString('base64url'),
    role: 'all',
    logLevel: 'silent',
    logFormat: 'json',
    trustProxy: [],
    maxUploadBytes: 25 * 1024 * 1024,
    allowPrivateUrls: true,
    // PUBLIC_URL is on loopback here: a local install, whose providers may be on this machine.
    providerAddresses: { localInstance: true, allowed: [] },
    parseLimits: DEFAULT_PARSE_LIMITS,
    apiUrl: undefined,
    webBuildDir: undefined,
    webDev: false,
    // Nothing in a test reaches the real services: a test that talks to them starts a local fake.
    slackApiUrl: 'http://127.0.0.1:9',
    telegramApiUrl: 'http://127.0.0.1:9',
    sessionLifetime: { idleMs: 30 * 24 * 3600 * 1000, maxMs: 365 * 24 * 3600 * 1000 },
    drainTimeoutMs: 30_000,
    ...overrides,
  };
  const app = await buildApp({
    config,
    database,
    runWorkers: true,
    logger: false,
    rateLimits: RELAXED_IP_LIMITS,
    ...build,
  });
  build.beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  config.publicUrl = overrides.publicUrl ?? url;

  async function call<T>(
    method: string,
    pathname: string,
    options: CallOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Token ${options.token}`;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    } else if (options.raw !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = options.raw;
    }
    const res = await fetch(url + pathname, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if (res.headers.get('content-type')?.includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  function outbox(): Mail[] {
    const dir = path.join(dataDir, 'outbox');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .sort()
      .map((file) => parseEml(fs.readFileSync(path.join(dir, file), 'utf8')));
  }

  /**
   * Without workers here (a test of requests alone), the account e-mails queued so far are sent as
   * a worker process would send them.
   */
  async function sendQueuedAccountMail() {
    if (app.jobs.runsWorkers) return;
    for (const job of await app.jobs.boss.fetch<AccountMailJob>(ACCOUNT_MAIL_QUEUE, { batchSize: 20 })) {
      await sendAccountMailJob(app, job.data);
      await app.jobs.boss.complete(ACCOUNT_MAIL_QUEUE, job.id);
    }
  }

  async function lastMail(to: string, subject?: string): Promise<Mail> {
    // Up to 15 s: account mail goes through the job queue (decision 068), slow on a loaded machine.
    for (let i = 0; i < 150; i++) {
      await sendQueuedAccountMail();
      const mail = outbox()
        .filter((m) => m.to === to)
        .at(-1);
      if (mail && (subject === undefined || mail.subject === subject)) return mail;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`No e-mail to ${to}${subject ? ` with subject "${subject}"` : ''} in the outbox`);
  }

  async function signUp(
    email = `user-${randomBytes(4).toString('hex')}@example.com`,
    password = TEST_PASSWORD,
  ) {
    const reg = await call('POST', '/api/register/', { json: { email, username: email, password } });
    if (reg.status !== 201) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
    const link = (await lastMail(email, 'Verify your e-mail address')).links.find((l) =>
      l.includes('/verify-email?token='),
    );
    const token = new URL(link!).searchParams.get('token');
    const verified = await call('POST', '/api/verify-email/', { json: { token } });
    if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
    const login = await call('POST', '/api/login/', { json: { email, password } });
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
    return login.body as { token: string; user: { id: number; email: string } };
  }

  return {
    app,
    url,
    config,
    database,
    call,
    outbox,
    lastMail,
    signUp,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The first e-mail in a server process's DATA_DIR/outbox, waiting for it: account mail is sent by a
 * job, just after the response (decision 068).
 */
export async function firstOutboxMail(dataDir: string): Promise<Mail> {
  const outbox = path.join(dataDir, 'outbox');
  for (let i = 0; i < 150; i++) {
    const [file] = fs.existsSync(outbox) ? fs.readdirSync(outbox).sort() : [];
    if (file) return parseEml(fs.readFileSync(path.join(outbox, file), 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No e-mail in ${outbox}`);
}

/** Enough of RFC 5322 + MIME to read our own messages: headers and the 7bit plain-text part. */
export function parseEml(raw: string): Mail {
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
  const textPart = /Content-Type: text\/plain[^\n]*\n(?:[^\n]+\n)*\n([\s\S]*?)\n--/i.exec(raw)?.[1] ?? '';
  return {
    to: header('To'),
    subject: header('Subject'),
    text: textPart,
    links: [...textPart.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]),
    raw,
  };
}
