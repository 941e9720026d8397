import { type Column, type SQL, sql } from 'drizzle-orm';

/**
 * `column = 'value'` with the value written into the statement text instead of sent as a
 * parameter. Statements run by name (decision 103) are planned once for any parameters after their
 * fifth run, and such a generic plan cannot use a partial index whose predicate names the value
 * (`messages_open_answers_idx`: `WHERE status IN ('pending', 'streaming')`): it scans the table
 * instead (decision 105). For the code's own constants only.
 */
export function eqLiteral(column: Column, value: string): SQL {
  if (!/^[a-z_]+$/.test(value))
    throw new Error(`eqLiteral takes a plain constant, not ${JSON.stringify(value)}`);
  return sql`${column} = ${sql.raw(`'${value}'`)}`;
}
