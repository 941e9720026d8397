import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEPT_STATEMENTS, namedStatements } from './pglite-statements.ts';

let client: PGlite;
let statements: ReturnType<typeof namedStatements>;
beforeEach(async () => {
  client = await PGlite.create();
  await client.exec(`CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL, at timestamptz, tags text[]);
    INSERT INTO things VALUES (1, 'a', '2026-01-02 03:04:05+00', '{x,y}'), (2, 'b', NULL, NULL);`);
  statements = namedStatements(client);
});
afterEach(async () => {
  await client.close();
});

const preparedTexts = async () =>
  (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map(
    (row) => row.statement,
  );

describe('namedStatements', () => {
  it('gives what PGlite’s query gives, and parses each text once', async () => {
    const text = 'SELECT id, name, at, tags FROM things WHERE id = ANY($1::int[]) ORDER BY id';
    for (let i = 0; i < 8; i++) {
      expect(await statements.query(text, [[1, 2]])).toEqual(await client.query(text, [[1, 2]]));
    }
    // No row: the columns are still those described when the statement was prepared.
    expect(await statements.query(text, [[]])).toEqual(await client.query(text, [[]]));
    const arrays = { rowMode: 'array' as const };
    expect(await statements.query(text, [[2]], arrays)).toEqual(await client.query(text, [[2]], arrays));
    expect((await preparedTexts()).filter((t) => t === text)).toHaveLength(1);
    // Writes report what they changed, and values of every kind are serialized as PGlite does.
    const insert = 'INSERT INTO things (id, name, at, tags) VALUES ($1, $2, $3, $4)';
    const inserted = await statements.query(insert, [3, 'c', new Date('2026-11-27T10:00:00Z'), ['p', 'q']]);
    expect(inserted.affectedRows).toBe(1);
    expect((await client.query('SELECT at, tags FROM things WHERE id = 3')).rows).toEqual([
      { at: new Date('2026-11-27T10:00:00Z'), tags: ['p', 'q'] },
    ]);
    const returning = 'UPDATE things SET name = $2 WHERE id = $1 RETURNING id, name';
    for (const id of [3, 4]) {
      const mine = await statements.query(returning, [id, 'd']);
      await client.query('UPDATE things SET name = $2 WHERE id = $1', [id, 'c']);
      expect(mine).toEqual(await client.query(returning, [id, 'd']));
    }
  });

  it('keeps at most KEPT_STATEMENTS prepared, closing the least recently used', async () => {
    const first = 'SELECT 0 AS n';
    await statements.query(first);
    for (let i = 1; i <= KEPT_STATEMENTS + 10; i++) await statements.query(`SELECT ${i} AS n`);
    const kept = await preparedTexts();
    expect(kept.length).toBeLessThanOrEqual(KEPT_STATEMENTS + 1);
    expect(kept).not.toContain(first);
    expect(kept).toContain(`SELECT ${KEPT_STATEMENTS + 10} AS n`);
    expect((await statements.query<{ n: number }>(first)).rows).toEqual([{ n: 0 }]);
  });

  it('prepares a statement again when its table changed under it', async () => {
    const text = 'SELECT * FROM things WHERE id = $1';
    await statements.query(text, [1]);
    await client.exec('ALTER TABLE things ADD COLUMN extra int DEFAULT 7');
    expect((await statements.query<{ extra: number }>(text, [1])).rows[0]?.extra).toBe(7);
    await statements.forgetAll();
    expect(await preparedTexts()).toEqual([]);
    expect((await statements.query<{ id: number }>(text, [2])).rows[0]?.id).toBe(2);
  });

  it('throws PGlite’s errors with the statement, and the session goes on', async () => {
    const broken = statements.query('SELEC 1');
    await expect(broken).rejects.toMatchObject({ code: '42601', query: 'SELEC 1' });
    const duplicate = statements.query('INSERT INTO things (id, name) VALUES ($1, $2)', [1, 'again']);
    await expect(duplicate).rejects.toMatchObject({ code: '23505', params: [1, 'again'] });
    expect((await statements.query('SELECT count(*)::int AS n FROM things')).rows).toEqual([{ n: 2 }]);
  });

  it('runs inside a transaction, which commits or rolls back as a whole', async () => {
    const insert = 'INSERT INTO things (id, name) VALUES ($1, $2)';
    await expect(
      client.transaction(async (tx) => {
        const query = statements.inTransaction(tx);
        await query(insert, [10, 'in']);
        expect((await query('SELECT name FROM things WHERE id = $1', [10])).rows).toEqual([{ name: 'in' }]);
        await query(insert, [1, 'duplicate']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await statements.query('SELECT name FROM things WHERE id = $1', [10])).rows).toEqual([]);

    let used: ((text: string) => Promise<unknown>) | undefined;
    await client.transaction(async (tx) => {
      const query = statements.inTransaction(tx);
      used = (text) => query(text);
      await query(insert, [11, 'kept']);
    });
    expect((await statements.query('SELECT name FROM things WHERE id = $1', [11])).rows).toEqual([
      { name: 'kept' },
    ]);
    await expect(used?.('SELECT 1')).rejects.toThrow('Transaction is closed');
  });

  it('never runs a statement inside another caller’s transaction', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = client.transaction(async (tx) => {
      await statements.inTransaction(tx)('UPDATE things SET name = $1 WHERE id = 1', ['changing']);
      await held;
      await tx.rollback();
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Waits for the transaction to end: it never sees the uncommitted name.
    const outside = statements.query<{ name: string }>('SELECT name FROM things WHERE id = 1');
    release();
    expect((await outside).rows).toEqual([{ name: 'a' }]);
    await transaction;
  });
});
