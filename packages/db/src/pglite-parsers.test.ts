import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIZZLE_TEXT_TYPES, splitParsers } from './pglite-parsers.ts';
import { namedStatements } from './pglite-statements.ts';

const things = pgTable('things', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
});

const SETUP = `CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL, at timestamptz NOT NULL);
  INSERT INTO things VALUES (1, 'a', '2026-01-02 03:04:05.123456+00'), (2, 'b', '2026-11-26 18:00:00+02');`;
// One column of every type drizzle keeps as text, arrays and NULLs included, beside ordinary ones.
const EVERY_TYPE = `SELECT 1::int AS n, true AS b, '{"k":1}'::jsonb AS j, 'x' AS t,
  '2026-01-02 03:04:05.123456'::timestamp AS ts, '2026-01-02 03:04:05.123456+01'::timestamptz AS tstz,
  '1 day 2 hours'::interval AS iv, '2026-01-02'::date AS d,
  ARRAY['2026-01-02 03:04:05'::timestamp] AS tsa, ARRAY['2026-01-02 03:04:05+00'::timestamptz, NULL] AS tstza,
  ARRAY['1 day'::interval] AS iva, ARRAY['2026-01-02'::date] AS da, ARRAY[1.5::numeric] AS na,
  NULL::timestamptz AS nothing, '2026-01-02'::date AS dup, '2026-01-03' AS dup`;

/** The same database opened as usual (drizzle passing its parsers, raw SQL on PGlite itself) and split. */
let usual: PGlite;
let split: PGlite;
let clients: ReturnType<typeof splitParsers>;
beforeAll(async () => {
  [usual, split] = await Promise.all([PGlite.create(), PGlite.create()]);
  await Promise.all([usual.exec(SETUP), split.exec(SETUP)]);
  clients = splitParsers(split, namedStatements(split));
});
afterAll(async () => {
  await Promise.all([usual?.close(), split?.close()]);
});

describe('splitParsers', () => {
  it('gives drizzle the values it gets with its own parsers, for the query builder and raw SQL', async () => {
    const before = drizzle(usual);
    const after = drizzle({ client: clients.forDrizzle });
    const select = (db: typeof before) => db.select().from(things).orderBy(things.id);
    expect(await select(after)).toEqual(await select(before));
    const [rowAfter] = (await after.execute(sql.raw(EVERY_TYPE))).rows;
    const [rowBefore] = (await before.execute(sql.raw(EVERY_TYPE))).rows;
    expect(rowAfter).toEqual(rowBefore);
    expect(rowAfter?.tstz).toBe('2026-01-02 02:04:05.123456+00');
    // Inside a transaction too.
    const inTx = await after.transaction(async (tx) => select(tx as unknown as typeof before));
    expect(inTx).toEqual(await select(before));
  });

  it('gives raw SQL PGlite’s usual values (Dates), from query and exec', async () => {
    const raw = async (pg: Pick<PGlite, 'query' | 'exec'>) => {
      const { rows, fields } = await pg.query<Record<string, unknown>>(EVERY_TYPE);
      const [execResult] = await pg.exec('SELECT id, at FROM things ORDER BY id');
      return { row: rows[0] ?? {}, types: fields.map((f) => f.dataTypeID), exec: execResult?.rows };
    };
    const after = await raw(clients.forRawSql);
    expect(after).toEqual(await raw(usual));
    expect(after.row.tstz).toBeInstanceOf(Date);
    expect(after.row.tstza).toEqual([new Date('2026-01-02T03:04:05Z'), null]);
    expect(after.row.dup).toBe('2026-01-03');
    // Every type drizzle keeps as text was in the statement: the comparison covered them all.
    for (const type of DRIZZLE_TEXT_TYPES) expect(after.types).toContain(type);
  });

  it('no longer copies PGlite’s parsers for every drizzle statement', async () => {
    const seen: unknown[] = [];
    const statements = namedStatements(split);
    const query = statements.query;
    statements.query = ((text: string, params?: unknown[], options?: { parsers?: unknown }) => {
      seen.push(options?.parsers);
      return query(text, params, options as never);
    }) as typeof query;
    await drizzle({ client: splitParsers(split, statements).forDrizzle })
      .select()
      .from(things);
    expect(seen).toEqual([undefined]);
  });
});
