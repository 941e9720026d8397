import { type PGlite, types } from '@electric-sql/pglite';
import type { namedStatements } from './pglite-statements.ts';

type Parser = (value: string, typeId?: number) => unknown;
type Results = { rows: unknown[]; fields: { name: string; dataTypeID: number }[] };

/**
 * The types drizzle's PGlite driver keeps as the text PostgreSQL sent (it maps them to values
 * itself), as it says with the parsers it passes with every statement: timestamps, dates and
 * intervals, and arrays of those and of numerics (array type → its element type).
 */
const TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE];
const TEXT_ARRAYS = new Map<number, number>([
  [1115, types.TIMESTAMP],
  [1185, types.TIMESTAMPTZ],
  [1187, types.INTERVAL],
  [1182, types.DATE],
  [1231, types.NUMERIC],
]);
export const DRIZZLE_TEXT_TYPES: readonly number[] = [...TEXT_TYPES, ...TEXT_ARRAYS.keys()];

const asText: Parser = (value) => value;

/** PGlite's clients as drizzle and as raw SQL (`Database.query`, pg-boss) each expect them. */
export interface PgliteClients {
  /** For `drizzle({ client })`: drizzle's parsers, without their cost per statement. */
  forDrizzle: PGlite;
  /** `query` and `exec` giving PGlite's usual values (a timestamp is a Date), for raw SQL. */
  forRawSql: Pick<PGlite, 'query' | 'exec'>;
}

/**
 * Drizzle passes its parsers with every statement, and PGlite then copies its whole table of
 * parsers (one per type and array type of the database, over 300) to merge them: about 0.2 ms per
 * statement, as much as a small query's own work in PGlite (docs/decisions/087). Instead the
 * client's own table takes drizzle's parsers once, and drizzle's statements go without: the same
 * values, no copy. Raw SQL gets PGlite's usual values back, converted from the few columns of those
 * types after the statement (what PGlite's parser would have made of the same text).
 *
 * Call once, after `PGlite.create` (array parsers are set up then). Both clients' statements go
 * through `statements` (prepared once per text, decision 103).
 */
export function splitParsers(client: PGlite, statements: ReturnType<typeof namedStatements>): PgliteClients {
  const usual = new Map<number, Parser>();
  for (const type of TEXT_TYPES) {
    const parse = client.parsers[type];
    if (parse) usual.set(type, parse);
  }
  for (const [arrayType, elementType] of TEXT_ARRAYS) {
    const element = client.parsers[elementType];
    usual.set(arrayType, (value) => types.arrayParser(value, element as Parser, arrayType));
  }
  for (const type of DRIZZLE_TEXT_TYPES) client.parsers[type] = asText;

  const restore = <T extends Results>(result: T): T => {
    const fields = result.fields.flatMap((field, i) => {
      const parse = usual.get(field.dataTypeID);
      // Object rows keep the last column of a name: only that one's value is there to convert.
      const last = result.fields.findLastIndex((f) => f.name === field.name);
      return parse && last === i ? [{ key: field.name, i, parse, type: field.dataTypeID }] : [];
    });
    if (fields.length === 0) return result;
    for (const row of result.rows as (Record<string, unknown> | unknown[])[]) {
      for (const { key, i, parse, type } of fields) {
        const at = Array.isArray(row) ? i : key;
        const value = (row as Record<string | number, unknown>)[at];
        if (typeof value === 'string') (row as Record<string | number, unknown>)[at] = parse(value, type);
      }
    }
    return result;
  };

  // Drizzle calls `query`, and `transaction` whose statements go through the transaction's `query`.
  type Queries = Pick<PGlite, 'query' | 'exec'>;
  const withoutParsers = <T extends Queries>(target: Queries, more: Partial<T>): T =>
    ({
      ...more,
      query: (text: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) =>
        target.query(text, params, options && { ...options, parsers: undefined }),
      exec: target.exec.bind(target),
    }) as T;
  const prepared = (target: Queries, query: Queries['query']): Queries => ({
    query,
    exec: target.exec.bind(target),
  });
  const forDrizzle = withoutParsers<PGlite>(prepared(client, statements.query as PGlite['query']), {
    transaction: ((run: (tx: Parameters<Parameters<PGlite['transaction']>[0]>[0]) => Promise<unknown>) =>
      client.transaction((tx) =>
        run(
          withoutParsers<typeof tx>(prepared(tx, statements.inTransaction(tx) as PGlite['query']), {
            rollback: tx.rollback.bind(tx),
          }),
        ),
      )) as PGlite['transaction'],
  });

  const forRawSql: PgliteClients['forRawSql'] = {
    query: (async (text: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) =>
      restore(await statements.query(text, params, options))) as PGlite['query'],
    exec: (async (text: string, options?: Parameters<PGlite['exec']>[1]) =>
      (await client.exec(text, options)).map(restore)) as PGlite['exec'],
  };
  return { forDrizzle, forRawSql };
}
