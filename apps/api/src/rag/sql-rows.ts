/**
 * The rows of a Drizzle `execute` result. node-postgres and PGlite both answer an object with a
 * `rows` array, but Drizzle types the two differently; this is the one place that knows.
 */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
