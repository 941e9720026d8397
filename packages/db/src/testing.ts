import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Database, MIGRATIONS_DIR, openDatabase } from './client.ts';

/**
 * Test databases are clones of one migrated template, made once per test run by the global
 * setup: a PGlite data-dir dump, or (with TEST_DATABASE_URL) a PostgreSQL template database.
 */
export const TEMPLATE_ENV = 'CAIRN_TEST_TEMPLATE';

/** A fingerprint of the migrations, so a stale template is never reused. */
export function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const file of fs.readdirSync(MIGRATIONS_DIR).sort()) {
    if (file.endsWith('.sql')) hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS_DIR, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

export function pgliteTemplatePath(): string {
  return path.join(os.tmpdir(), `cairn-test-template-${migrationsFingerprint()}.tar.gz`);
}

/** Builds the template; `prepare` adds what the app creates at start (the job-queue schema). */
export async function buildTemplate(prepare: (db: Database) => Promise<void>): Promise<string> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `cairn_tpl_${migrationsFingerprint()}_${process.pid}`;
    await adminQuery(url, `DROP DATABASE IF EXISTS ${name}`);
    await adminQuery(url, `CREATE DATABASE ${name}`);
    const db = await openDatabase({ databaseUrl: withDatabase(url, name) });
    await db.migrate();
    await prepare(db);
    await db.close();
    return name;
  }
  const file = pgliteTemplatePath();
  if (fs.existsSync(file)) return file;
  const db = await openDatabase({});
  await db.migrate();
  await prepare(db);
  const dump = await (db.raw as PGlite).dumpDataDir('gzip');
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(tmp, file);
  await db.close();
  return file;
}

export async function dropTemplate(template: string): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) await adminQuery(url, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
}

/** A fresh database for one test file, cloned from the template. */
export async function openTestDatabase(): Promise<Database> {
  const template = process.env[TEMPLATE_ENV];
  if (!template)
    throw new Error(
      `${TEMPLATE_ENV} is not set: run tests through vitest (its global setup builds the template).`,
    );
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `cairn_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(url, `CREATE DATABASE ${name} TEMPLATE ${template}`);
    const db = await openDatabase({ databaseUrl: withDatabase(url, name) });
    const close = db.close.bind(db);
    db.close = async () => {
      await close();
      await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    };
    return db;
  }
  const dump = new Blob([fs.readFileSync(template)]);
  return openDatabase({ loadDataDir: dump });
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
