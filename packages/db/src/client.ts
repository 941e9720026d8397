import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireDirLock } from './dir-lock.ts';
import { type PgliteClients, splitParsers } from './pglite-parsers.ts';
import { namedStatements } from './pglite-statements.ts';
import { NamingClient } from './postgres-statements.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type the API uses, whichever engine is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

export interface Database {
  db: Db;
  /**
   * The engine's own client, for engine-specific needs (tests dump PGlite data dirs). PGlite's gives
   * timestamps and dates as text (drizzle's parsers are its own, see pglite-parsers.ts): raw SQL on
   * PGlite goes through `pgliteRawSql`.
   */
  raw: PGlite | pg.Pool;
  /** PGlite only: `query` and `exec` with PGlite's usual values, for raw SQL (pg-boss's adapter). */
  pgliteRawSql?: PgliteClients['forRawSql'];
  kind: 'pglite' | 'postgres';
  /** Raw SQL, one statement, with positional parameters. */
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: T[] }>;
  /** Subscribes to a LISTEN/NOTIFY channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A postgres:// URL; when absent an embedded PGlite is opened in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** A PGlite data-dir dump to start from (tests clone a migrated template this way). */
  loadDataDir?: Blob | undefined;
  /**
   * A migrated data dir made when the API was built (`make-pglite-template.ts`): a new data dir
   * starts as a copy of it instead of running initdb. Ignored when missing or made by another PGlite.
   */
  templateDir?: string | undefined;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.dataDir, options.loadDataDir, options.templateDir);
}

/**
 * PGlite's buffer pool lives in its WebAssembly heap, inside this process, and is touched whole at
 * start: PostgreSQL's default 128 MB is ~110 MB of resident memory more than 32 MB, and 32 MB ~16 MB
 * more than 16 MB. The knowledge this process serves is ranked from in-process copies (decision
 * 022) and the data dirs of a team are small, so a larger pool bought little (decision 043; at
 * 16 MB the BM25 SQL fallback measured within the machine's noise of 32 MB). Given at every start,
 * so data dirs made before this setting get it too, and to initdb, whose first-start peak it lowers.
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB'];

/** PGlite's CommonJS entry, resolved from this package (dist/index.cjs). */
function pgliteEntry(): string {
  return createRequire(import.meta.url).resolve('@electric-sql/pglite');
}

/**
 * What a data-dir template must have been made with to be copied: the same PGlite (its PostgreSQL
 * build reads the files) and the same settings.
 */
export function pgliteTemplateKey(): string {
  const pkg = path.join(path.dirname(pgliteEntry()), '..', 'package.json');
  const { version } = JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string };
  return `pglite ${version} ${PGLITE_SETTINGS.join(' ')}`;
}

/**
 * A new data dir from the template made at build time: copying ~40 MB of files takes a fraction
 * of a second, where initdb takes seconds and peaks at ~0.7 GB. The copy is made next to `dir` and
 * renamed over it, so an interrupted copy never leaves a half data dir that looks whole. Returns
 * false (initdb, then) when there is no usable template.
 */
function copyTemplate(templateDir: string, dir: string): boolean {
  let key: string;
  try {
    key = fs.readFileSync(path.join(templateDir, 'key'), 'utf8');
  } catch {
    return false;
  }
  if (key.split('\n')[0] !== pgliteTemplateKey() || fs.readdirSync(dir).length > 0) return false;
  const partial = `${dir}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(path.join(templateDir, 'pglite'), partial, { recursive: true });
  fs.rmdirSync(dir);
  fs.renameSync(partial, dir);
  return true;
}

/**
 * A new data dir's initdb runs two more PostgreSQL instances in WebAssembly: ~0.75 GB at its peak,
 * and ~120 MB of it stays resident in the process that ran it even after garbage collection. Run in
 * a process of its own, all of it goes back to the system when it exits, and the server at rest
 * weighs the same on its first start as on every later one.
 */
async function initdbInChildProcess(dir: string) {
  const pglite = pgliteEntry();
  const script = `require(${JSON.stringify(pglite)}).PGlite.create({ dataDir: process.argv[1], initDbStartParams: ${JSON.stringify(PGLITE_SETTINGS)} }).then((db) => db.close())`;
  const child = spawn(process.execPath, ['-e', script, dir], { stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data) => {
    stderr += data;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`Creating the embedded database in ${dir} failed: ${stderr.trim()}`);
}

async function openPglite(
  dataDir: string | undefined,
  loadDataDir: Blob | undefined,
  templateDir: string | undefined,
): Promise<Database> {
  let releaseLock = () => {};
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    releaseLock = acquireDirLock(dataDir);
  }
  let client: PGlite;
  try {
    if (dir && !loadDataDir && !fs.existsSync(path.join(dir, 'PG_VERSION'))) {
      if (!templateDir || !copyTemplate(templateDir, dir)) await initdbInChildProcess(dir);
    }
    client = await PGlite.create({
      dataDir: dir,
      extensions: { vector },
      loadDataDir,
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
      initDbStartParams: PGLITE_SETTINGS,
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const statements = namedStatements(client);
  const { forDrizzle, forRawSql } = splitParsers(client, statements);
  const db = drizzlePglite({ client: forDrizzle, schema }) as unknown as Db;
  // No other process can reach this database (its data dir is locked to this one), so LISTEN/NOTIFY
  // is an in-process bus: an event costs no query on the one connection everything else waits for.
  const channels = new Map<string, Set<(payload: string) => void>>();
  return {
    db,
    raw: client,
    pgliteRawSql: forRawSql,
    kind: 'pglite',
    async query<T>(text: string, values: unknown[] = []) {
      const result = await forRawSql.query<T>(text, values);
      return { rows: result.rows };
    },
    async listen(channel, onPayload) {
      let listeners = channels.get(channel);
      if (!listeners) {
        listeners = new Set();
        channels.set(channel, listeners);
      }
      const listener = (payload: string) => onPayload(payload);
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
      };
    },
    async notify(channel, payload) {
      // Delivered after the caller continues, in order, as PostgreSQL delivers notifications.
      for (const listener of channels.get(channel) ?? []) {
        queueMicrotask(() => {
          try {
            listener(payload);
          } catch (error) {
            console.error(`listener of ${channel} failed`, error);
          }
        });
      }
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client: forDrizzle }), { migrationsFolder: MIGRATIONS_DIR });
      // The statements prepared before may have read tables the migration changed.
      await statements.forgetAll();
    },
    async close() {
      await client.close();
      releaseLock();
    },
  };
}

/** NOTIFYs sent in one statement at most (each a pair of parameters; pg allows 65,535). */
const NOTIFY_BATCH = 1000;

/**
 * NOTIFY in the order called. Sent each through any of the pool's connections, two NOTIFYs of one
 * process could commit, and so be delivered, in the other order (a conversation's first answer
 * before the conversation itself, which a visitor's stream in another process then drops). Here one
 * statement is in flight at a time, carrying every NOTIFY called meanwhile: PostgreSQL delivers
 * the notifications of one transaction in the order they were sent.
 */
function orderedNotify(pool: pg.Pool): Database['notify'] {
  const queued: Array<{
    channel: string;
    payload: string;
    sent: () => void;
    failed: (err: unknown) => void;
  }> = [];
  let sending = false;
  async function send() {
    sending = true;
    while (queued.length) {
      const batch = queued.splice(0, NOTIFY_BATCH);
      const calls = batch.map((_, i) => `pg_notify($${2 * i + 1}, $${2 * i + 2})`).join(', ');
      try {
        await pool.query(
          `SELECT ${calls}`,
          batch.flatMap((n) => [n.channel, n.payload]),
        );
        for (const n of batch) n.sent();
      } catch (err) {
        for (const n of batch) n.failed(err);
      }
    }
    sending = false;
  }
  return (channel, payload) =>
    new Promise<void>((sent, failed) => {
      queued.push({ channel, payload, sent, failed });
      if (!sending) void send();
    });
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 20, Client: NamingClient });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  let listener: pg.Client | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  async function listenerClient(): Promise<pg.Client> {
    if (listener) return listener;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    client.on('notification', (msg) => {
      for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
    });
    listener = client;
    return client;
  }

  return {
    db,
    raw: pool,
    kind: 'postgres',
    async query<T>(text: string, values: unknown[] = []) {
      // A config object: named by NamingClient when it has parameters.
      const result = await pool.query({ text, values });
      return { rows: result.rows as T[] };
    },
    async listen(channel, onPayload) {
      const client = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    notify: orderedNotify(pool),
    async migrate() {
      // Several API processes may start at once: only one migrates at a time.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(727274)');
        await migrateNodePg(drizzleNodePg(client), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('SELECT pg_advisory_unlock(727274)').catch(() => {});
        client.release();
      }
    },
    async close() {
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}

export { sql };
