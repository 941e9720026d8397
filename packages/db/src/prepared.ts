import type { Db } from './client';

/**
 * A drizzle statement built once per database handle, run with `sql.placeholder` values. Drizzle
 * turns a query builder into its SQL text at every run, and that costs about as much CPU as PGlite
 * running the statement (decision 074): about a tenth of a signed-in page's and of an answer's CPU
 * before decision 106. `build` ends with `.prepare(name)`, a name unique in the code base
 * (node-postgres prepares it by that name on each connection). A transaction is a handle of its
 * own: there the statement is built once per transaction.
 */
export function preparedPerDb<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
