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
import { apiCall } from './api-call.ts';
import { readOutbox, waitForMail } from './mail.ts';
import { newTestEmail, type RunningCairn } from './running-cairn.ts';
import { signUpThroughMail, TEST_PASSWORD } from './sign-up.ts';

export type { CallOptions, TestResponse } from './api-call.ts';
export type { Mail } from './mail.ts';
export { TEST_PASSWORD } from './sign-up.ts';

export interface TestApp extends RunningCairn {
  app: FastifyInstance;
  config: Config;
  database: Database;
  close(): Promise<void>;
}

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
    answerSlots: 64,
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

  const call = apiCall(url);
  const outbox = () => readOutbox(dataDir);

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

  const lastMail = (to: string, subject?: string) =>
    waitForMail(
      async () => {
        await sendQueuedAccountMail();
        return outbox();
      },
      to,
      subject,
    );

  const signUp = (email = newTestEmail(), password = TEST_PASSWORD) =>
    signUpThroughMail(call, lastMail, email, password);

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
