import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const ZBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every environment variable Cairn reads. The defaults start the product with no setup at all. */
export const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'Must be a postgres:// or postgresql:// URL')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'Must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Cairn <no-reply@localhost>'),
  SECRET_KEY: z.string().min(32, 'At least 32 characters').optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  TRUST_PROXY: ZBool.default(false),
  MAX_UPLOAD_MB: z.coerce.number().positive().max(1024).default(25),
  ALLOW_PRIVATE_URLS: ZBool.default(false),
  API_URL: z.url().optional(),
  WEB_BUILD_DIR: z.string().min(1).optional(),
  NODE_ENV: z.string().optional(),
  SLACK_API_URL: z.url().default('https://slack.com/api'),
  TELEGRAM_API_URL: z.url().default('https://api.telegram.org'),
  DRAIN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(30),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  secretKey: string;
  role: 'all' | 'api' | 'worker';
  logLevel: string;
  /** `auto`: readable lines when stdout is a terminal, JSON lines otherwise. */
  logFormat: 'auto' | 'pretty' | 'json';
  trustProxy: boolean;
  maxUploadBytes: number;
  allowPrivateUrls: boolean;
  /** Where the web app's server-side code calls the API; unset: this process over loopback. */
  apiUrl: string | undefined;
  /** The web app's production build; unset: apps/web/build. */
  webBuildDir: string | undefined;
  /** NODE_ENV=development: the web app is served through Vite with hot reload. */
  webDev: boolean;
  /** Slack's Web API (`@slack/web-api` `slackApiUrl`): a proxy or, in tests, a local fake. */
  slackApiUrl: string;
  /** Telegram's Bot API root (grammY `apiRoot`): a proxy, a self-hosted Bot API server or a fake. */
  telegramApiUrl: string;
  /** On SIGTERM/SIGINT, how long answers and jobs under way may finish before they are handed back. */
  drainTimeoutMs: number;
}

export class ConfigError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError naming every bad key at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    secretKey: e.SECRET_KEY ?? loadOrCreateSecretKey(dataDir),
    role: e.ROLE,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    trustProxy: e.TRUST_PROXY,
    maxUploadBytes: Math.round(e.MAX_UPLOAD_MB * 1024 * 1024),
    allowPrivateUrls: e.ALLOW_PRIVATE_URLS,
    apiUrl: e.API_URL?.replace(/\/+$/, ''),
    webBuildDir: e.WEB_BUILD_DIR ? path.resolve(e.WEB_BUILD_DIR) : undefined,
    webDev: e.NODE_ENV === 'development',
    slackApiUrl: e.SLACK_API_URL.replace(/\/+$/, ''),
    telegramApiUrl: e.TELEGRAM_API_URL.replace(/\/+$/, ''),
    drainTimeoutMs: e.DRAIN_TIMEOUT_SECONDS * 1000,
  };
}

/** Without SECRET_KEY, one is generated on first start and kept in DATA_DIR (mode 0600). */
function loadOrCreateSecretKey(dataDir: string): string {
  const file = path.join(dataDir, 'secret-key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}
