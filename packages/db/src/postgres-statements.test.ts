import { drizzle } from 'drizzle-orm/node-postgres';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMED_TEXTS, NamingClient, statementName } from './postgres-statements.ts';

const url = process.env.TEST_DATABASE_URL;
const things = pgTable('naming_things', { id: integer('id').primaryKey(), name: text('name').notNull() });

describe.skipIf(!url)('NamingClient (PostgreSQL)', () => {
  // One connection, so that pg_prepared_statements (per connection) shows what the pool's did.
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url, max: 1, Client: NamingClient });
    await pool.query(`DROP TABLE IF EXISTS naming_things;
      CREATE TABLE naming_things (id int PRIMARY KEY, name text NOT NULL);
      INSERT INTO naming_things VALUES (1, 'a'), (2, 'b');`);
  });
  afterAll(async () => {
    await pool?.query('DROP TABLE IF EXISTS naming_things');
    await pool?.end();
  });
  const prepared = async () =>
    (await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map(
      (row) => row.statement,
    );

  it('prepares drizzle’s statements once per connection and gives the same rows', async () => {
    const db = drizzle(pool);
    const { eq } = await import('drizzle-orm');
    for (let i = 0; i < 3; i++) {
      expect(await db.select().from(things).where(eq(things.id, 2))).toEqual([{ id: 2, name: 'b' }]);
    }
    const texts = await prepared();
    expect(texts.filter((t) => t.includes('"naming_things"'))).toHaveLength(1);
  });

  it('leaves string queries and statements without parameters unnamed', async () => {
    const before = (await prepared()).length;
    expect((await pool.query('SELECT $1::int + 1 AS n', [1])).rows).toEqual([{ n: 2 }]);
    // Several statements in one text run only unnamed (the simple protocol).
    const results = (await pool.query({
      text: 'SELECT 1 AS a; SELECT 2 AS b',
    })) as unknown as pg.QueryResult[];
    expect(results.map((r) => r.rows[0])).toEqual([{ a: 1 }, { b: 2 }]);
    expect(await prepared()).toHaveLength(before);
  });
});

describe('statementName', () => {
  it('names at most NAMED_TEXTS texts, the same name for the same text', () => {
    const first = statementName('SELECT 1 WHERE $1');
    expect(statementName('SELECT 1 WHERE $1')).toBe(first);
    for (let i = 0; i < NAMED_TEXTS; i++) statementName(`SELECT ${i} WHERE $1`);
    expect(statementName('SELECT a new text WHERE $1')).toBeUndefined();
    expect(statementName('SELECT 1 WHERE $1')).toBe(first);
  });
});
