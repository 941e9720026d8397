import type { Database, Db as Drizzle } from '@cairn/db/client';
import { sql } from 'drizzle-orm';
import { type Db, type DrizzleTransactionLike, fromDrizzle, fromPglite } from 'pg-boss';

/**
 * pg-boss's SQL goes through our own connections, so PGlite's single connection serves it too.
 * PGlite takes pg-boss's own adapter (multi-statement SQL without parameters through `exec()`);
 * PostgreSQL our pool.
 */
export function jobsDatabase(database: Database): Db {
  if (database.kind === 'pglite') {
    return fromPglite((database.pgliteRawSql ?? database.raw) as Parameters<typeof fromPglite>[0]);
  }
  // The pool's own result: for multi-statement SQL an array of results, which pg-boss flattens
  // itself (it needs the rows of every statement, not only the last one's).
  const pool = database.raw as { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
  return { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) };
}

/**
 * pg-boss's SQL inside a Drizzle transaction, so jobs are sent with the rows that need them (on
 * PGlite's one connection, a statement outside an open transaction would wait for it).
 */
export function inTransaction(tx: Drizzle): Db {
  // Our Db's execute() resolves to the engine's result (rows, or { rows }), typed as unknown.
  return fromDrizzle(tx as unknown as DrizzleTransactionLike, sql);
}
