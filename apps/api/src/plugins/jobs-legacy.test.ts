import fs from 'node:fs';
import type { Database } from '@cairn/db/client';
import { openTestDatabase } from '@cairn/db/testing';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import jobsPlugin from './jobs.ts';
import { jobsDatabase } from './jobs-database.ts';
import { LEGACY_SCHEMA } from './jobs-legacy.ts';

const LEGACY_SQL = fs.readFileSync(new URL('../testing/pg-boss-10-schema.sql', import.meta.url), 'utf8');

let database: Database | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

/** A database as Cairn left it under pg-boss 10: its schema, a queue, and jobs in each state. */
async function legacyDatabase(): Promise<Database> {
  const db = await openTestDatabase();
  await db.query('DROP SCHEMA pgboss CASCADE');
  await jobsDatabase(db).executeSql(LEGACY_SQL);
  await db.query(`SELECT pgboss.create_queue($1, '{"policy":"standard"}'::json)`, ['legacy-queue']);
  await db.query(
    `INSERT INTO pgboss.job (name, data, state, retry_limit, retry_count, start_after) VALUES
       ($1, '{"n":1}', 'created', 2, 0, now() + interval '1 hour'),
       ($1, '{"n":2}', 'retry', 3, 1, now()),
       ($1, '{"n":3}', 'active', 0, 0, now()),
       ($1, '{"n":4}', 'completed', 0, 0, now())`,
    ['legacy-queue'],
  );
  return db;
}

async function startJobs(db: Database) {
  const app = Fastify({ logger: false });
  app.decorate('database', db);
  await app.register(jobsPlugin, { runWorkers: false });
  await app.ready();
  return app;
}

describe('a pg-boss 10 schema at start', () => {
  it('is replaced by pg-boss 12 and the jobs still to run move across, the finished ones do not', async () => {
    database = await legacyDatabase();
    const app = await startJobs(database);
    const version = await database.query<{ version: number }>('SELECT version FROM pgboss.version');
    expect(version.rows[0]!.version).toBeGreaterThan(24);
    const jobs = await database.query<{
      data: { n: number };
      state: string;
      retry_limit: number;
      later: boolean;
    }>(
      `SELECT data, state, retry_limit, start_after > now() + interval '50 minutes' AS later
         FROM pgboss.job WHERE name = $1 ORDER BY data->>'n'`,
      ['legacy-queue'],
    );
    expect(jobs.rows).toEqual([
      { data: { n: 1 }, state: 'created', retry_limit: 2, later: true },
      { data: { n: 2 }, state: 'created', retry_limit: 2, later: false },
      { data: { n: 3 }, state: 'created', retry_limit: 0, later: false },
    ]);
    const legacy = await database.query<{ present: boolean }>(
      `SELECT to_regnamespace('${LEGACY_SCHEMA}') IS NOT NULL AS present`,
    );
    expect(legacy.rows[0]!.present).toBe(false);
    await app.close();

    // The next start finds pg-boss 12's schema and changes nothing.
    const again = await startJobs(database);
    const count = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.job');
    expect(count.rows[0]!.n).toBe(3);
    await again.close();
  });
});
