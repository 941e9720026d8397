import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isLocalInstance, type ProviderAddressPolicy, parsePrivateHosts } from './models/provider-url.ts';
import { DEFAULT_PARSE_LIMITS as PARSE, type ParseLimits } from './rag/parse/parse-limits.ts';

const MB = 1024 * 1024;

const DAY_MS = 24 * 3600 * 1000;
const ZBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** An IP address, or a CIDR block such as `10.0.0.0/8` or `fd00::/8`. */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `false` (off) or the proxies whose X-Forwarded-* headers count: comma-separated addresses and CIDR
 * blocks. `true` is refused: it would let any client choose its own address (decision 057).
 */
const ZTrustProxy = z
  .string()
  .transform((v) => (v === 'false' || v === '0' ? [] : v.split(',').map((e) => e.trim())))
  .refine((entries) => entries.every(isAddressOrCidr), {
    message: 'List the proxy addresses or CIDR blocks, e.g. 127.0.0.1 or 10.0.0.0/8,fd00::/8 (or false)',
  });

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
  TRUST_PROXY: ZTrustProxy.default([]),
  MAX_UPLOAD_MB: z.coerce.number().positive().max(1024).default(25),
  ALLOW_PRIVATE_URLS: ZBool.default(false),
  PROVIDER_PRIVATE_HOSTS: z
    .string()
    .default('')
    .superRefine((value, ctx) => {
      try {
        parsePrivateHosts(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  PARSE_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(3600)
    .default(PARSE.timeoutMs / 1000),
  PARSE_MEMORY_MB: z.coerce.number().int().min(64).max(16384).default(PARSE.memoryMb),
  PARSE_MAX_EXPANDED_MB: z.coerce
    .number()
    .positive()
    .max(16384)
    .default(PARSE.maxExpandedBytes / MB),
  PARSE_MAX_TEXT_MB: z.coerce
    .number()
    .positive()
    .max(1024)
    .default(PARSE.maxTextBytes / MB),
  PARSE_MAX_PDF_PAGES: z.coerce.number().int().positive().max(1_000_000).default(PARSE.maxPdfPages),
  PARSE_MAX_OCR_PAGES: z.coerce.number().int().min(0).max(10_000).default(PARSE.maxOcrPages),
  API_URL: z.url().optional(),
  WEB_BUILD_DIR: z.string().min(1).optional(),
  NODE_ENV: z.string().optional(),
  SLACK_API_URL: z.url().default('https://slack.com/api'),
  TELEGRAM_API_URL: z.url().default('https://api.telegram.org'),
  SESSION_IDLE_DAYS: z.coerce.number().positive().max(3650).default(30),
  SESSION_MAX_DAYS: z.coerce.number().positive().max(3650).default(365),
  DRAIN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  ANSWER_SLOTS: z.coerce.number().int().min(0).max(10_000).default(64),
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
  /**
   * Addresses and CIDR blocks of the proxies whose X-Forwarded-For/-Host/-Proto are believed (empty:
   * none, loopback included). The client address, host and scheme come from them only.
   */
  trustProxy: string[];
  maxUploadBytes: number;
  allowPrivateUrls: boolean;
  /** Where model providers may be reached: PUBLIC_URL's kind and PROVIDER_PRIVATE_HOSTS (decision 056). */
  providerAddresses: ProviderAddressPolicy;
  /** What parsing one file may cost (docs/decisions/055-bounded-parsing.md). */
  parseLimits: ParseLimits;
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
  /** A session unused this long ends; a session ends this long after sign-in whatever its use. */
  sessionLifetime: { idleMs: number; maxMs: number };
  /** On SIGTERM/SIGINT, how long answers and jobs under way may finish before they are handed back. */
  drainTimeoutMs: number;
  /**
   * Answers this process streams at once, whatever its role: a process answers the questions it
   * stores, and takes pending ones (beyond another's slots, or of a process that died). 0: none.
   */
  answerSlots: number;
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
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
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
    providerAddresses: {
      localInstance: isLocalInstance(publicUrl),
      allowed: parsePrivateHosts(e.PROVIDER_PRIVATE_HOSTS),
    },
    parseLimits: {
      // The other OCR limits (time per page and document, pixels, image bytes) are parse-limits.ts's.
      ...PARSE,
      maxOcrPages: e.PARSE_MAX_OCR_PAGES,
      timeoutMs: Math.round(e.PARSE_TIMEOUT_SECONDS * 1000),
      memoryMb: e.PARSE_MEMORY_MB,
      maxExpandedBytes: Math.round(e.PARSE_MAX_EXPANDED_MB * MB),
      maxTextBytes: Math.round(e.PARSE_MAX_TEXT_MB * MB),
      maxPdfPages: e.PARSE_MAX_PDF_PAGES,
    },
    apiUrl: e.API_URL?.replace(/\/+$/, ''),
    webBuildDir: e.WEB_BUILD_DIR ? path.resolve(e.WEB_BUILD_DIR) : undefined,
    webDev: e.NODE_ENV === 'development',
    slackApiUrl: e.SLACK_API_URL.replace(/\/+$/, ''),
    telegramApiUrl: e.TELEGRAM_API_URL.replace(/\/+$/, ''),
    sessionLifetime: { idleMs: e.SESSION_IDLE_DAYS * DAY_MS, maxMs: e.SESSION_MAX_DAYS * DAY_MS },
    drainTimeoutMs: e.DRAIN_TIMEOUT_SECONDS * 1000,
    answerSlots: e.ANSWER_SLOTS,
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
