import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

/**
 * Statements kept prepared at most; the least recently used one is closed past it. The product
 * runs a few hundred distinct statements; texts that embed values (a list of n placeholders) come
 * and go.
 */
export const KEPT_STATEMENTS = 500;

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

type Reply = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

interface Prepared {
  name: string;
  /** The parameters' type ids, as PostgreSQL inferred them: which serializer each value takes. */
  paramTypes: number[];
  /**
   * The columns of its rows (absent for a statement that returns none), described once when it is
   * prepared: a run sends no Describe, so PostgreSQL does not build them again and PGlite does not
   * parse their names again for every run (decision 109).
   */
  rowDescription: Reply | undefined;
}

/** Names statements for the whole process: two sets of statements on one client never collide. */
let counter = 0;

/** The `cached plan must not change result type` error: a table changed under a prepared `SELECT`. */
const FEATURE_NOT_SUPPORTED = '0A000';

/**
 * PGlite's `query`, with each distinct statement text parsed once and kept as a named prepared
 * statement. PGlite's own `query` sends every statement unnamed, so PostgreSQL parses, analyses and
 * plans it anew each time: for the chat's statements most of their time (decision 103: the
 * knowledge search's stemming statement 1.44 → 0.51 ms, its passages 1.66 → 0.69 ms, a one-row
 * select 0.41 → 0.13 ms). A named statement is planned with its values for its first five runs,
 * then PostgreSQL keeps a generic plan only when it costs no more (`plan_cache_mode` auto), as for
 * every driver that prepares statements (JDBC, node-postgres' named queries).
 *
 * The same exclusivity as PGlite's `query` (no statement interleaves with another or with a
 * transaction), the same values (its serializers, parsers and error fields), and the file system
 * synced after a statement outside a transaction, as PGlite does. A statement with a `blob` (COPY)
 * goes through PGlite's own `query`.
 */
export function namedStatements(client: PGlite): {
  query: Query;
  /** `tx.query` of a PGlite transaction, prepared the same way. */
  inTransaction(tx: Transaction): Query;
  /** Closes every prepared statement (after a migration, whose tables they may have read). */
  forgetAll(): Promise<void>;
} {
  const { serialize, messages } = protocol;
  /** In use order, least recent first. */
  const prepared = new Map<string, Prepared>();
  /** Close messages for statements evicted, sent with the next statement. */
  let closing: Uint8Array[] = [];

  const send = (parts: Uint8Array[], options?: QueryOptions) =>
    client.execProtocolStream(concat(parts), { ...options, syncToFs: false });

  async function prepare(text: string, options?: QueryOptions): Promise<Prepared> {
    const name = `cairn_${++counter}`;
    const parts = closing;
    closing = [];
    const replies = await send(
      [
        ...parts,
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ],
      options,
    );
    const statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(replies),
      rowDescription: replies.find((reply) => reply.name === 'rowDescription'),
    };
    prepared.set(text, statement);
    for (const [oldText, old] of prepared) {
      if (prepared.size <= KEPT_STATEMENTS) break;
      prepared.delete(oldText);
      closing.push(serialize.close({ type: 'S', name: old.name }));
    }
    return statement;
  }

  function forget(text: string) {
    const statement = prepared.get(text);
    if (!statement) return;
    prepared.delete(text);
    closing.push(serialize.close({ type: 'S', name: statement.name }));
  }

  /** Runs under PGlite's query lock. */
  async function run<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<T>> {
    let replies: Awaited<ReturnType<typeof send>>;
    try {
      let statement = prepared.get(text);
      if (statement) {
        prepared.delete(text);
        prepared.set(text, statement);
      } else {
        statement = await prepare(text, options);
      }
      const { paramTypes, rowDescription } = statement;
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const oid = paramTypes[i]!;
        const serializer = options?.serializers?.[oid] ?? client.serializers[oid];
        return serializer ? serializer(param) : String(param);
      });
      const parts = closing;
      closing = [];
      replies = await send(
        [
          ...parts,
          serialize.bind({ statement: statement.name, values }),
          serialize.execute({}),
          serialize.sync(),
        ],
        options,
      );
      if (rowDescription) replies.unshift(rowDescription);
    } catch (error) {
      if (error instanceof messages.DatabaseError) {
        if (error.code === FEATURE_NOT_SUPPORTED) forget(text);
        Object.assign(error, { query: text, params, queryOptions: options });
      }
      throw error;
    }
    if (!inTransaction) await client.syncToFs();
    return parse.parseResults(replies, client.parsers, options)[0] as Results<T>;
  }

  const query: Query = async (text, params = [], options) => {
    if (options?.blob) return client.query(text, params, options);
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          return await run(text, params, options, false);
        } catch (error) {
          // A table changed under the statement (a migration, a test's schema): prepared again once.
          if (!(error instanceof messages.DatabaseError && error.code === FEATURE_NOT_SUPPORTED)) throw error;
          return run(text, params, options, false);
        }
      }),
    );
  };

  return {
    query,
    inTransaction:
      (tx) =>
      async (text, params = [], options) => {
        if (options?.blob) return tx.query(text, params, options);
        if (tx.closed) throw new Error('Transaction is closed');
        return client._runExclusiveQuery(() => run(text, params, options, true));
      },
    async forgetAll() {
      await client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(async () => {
          for (const text of [...prepared.keys()]) forget(text);
          const parts = closing;
          closing = [];
          if (parts.length) await send([...parts, serialize.sync()]);
        }),
      );
    },
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
