import pg from 'pg';

/**
 * Statement texts given a name at most, for the whole process. PostgreSQL keeps a named statement
 * per connection until the connection ends, and node-postgres cannot forget one, so the set is
 * bounded instead of evicted: texts past it run unnamed, as before.
 */
export const NAMED_TEXTS = 500;

const names = new Map<string, string>();

/** The name for a statement text, or undefined once NAMED_TEXTS texts have one. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < NAMED_TEXTS) {
    name = `cairn_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A pool connection that runs drizzle's statements (and `Database.query`'s) as named prepared
 * statements: PostgreSQL parses and plans each text once per connection instead of every time
 * (decision 103: the knowledge search's stemming statement 0.66–0.95 → 0.21–0.29 ms a round trip).
 * Only statements that carry parameters and no name of their own: a statement without parameters
 * may be several (a migration's file), which only the simple protocol runs; a string query
 * (`pool.query(text, values)`, the NOTIFY batches whose text changes with their size) stays
 * unnamed.
 *
 * Behind a connection pooler in transaction mode (PgBouncer before 1.21, or without
 * `max_prepared_statements`), named statements do not survive a change of server connection.
 */
export class NamingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: node-postgres' query has a dozen overloads; this only looks at a config object's fields.
  override query(config: any, values?: any, callback?: any): any {
    if (
      config !== null &&
      typeof config === 'object' &&
      typeof config.text === 'string' &&
      config.name === undefined &&
      typeof config.submit !== 'function' &&
      Array.isArray(values ?? config.values) &&
      (values ?? config.values).length > 0
    ) {
      const name = statementName(config.text);
      if (name !== undefined) config = { ...config, name };
    }
    return super.query(config, values, callback);
  }
}
