import type { Database } from '@cairn/db/client';
import type { RankedChunk } from './retrieve.ts';

/**
 * An in-process copy of one application's BM25 postings, so that a query is scored in a few
 * milliseconds instead of reading tens of thousands of postings through SQL (on PGlite that SQL
 * also holds the one connection every other request waits for).
 *
 * The copy is exact for one version of the application's knowledge: `knowledge_index_stats.version`
 * is bumped, in the same statement, by every insert or delete of chunks (and postings only change
 * together with their chunks), and in the same transaction by switching an item off or on. A search first asks the database for the current version; the copy
 * is used only when it matches, otherwise BM25_SQL answers and a rebuild is started in the
 * background. Builds are throttled, so a knowledge base being filled item by item is not copied
 * again after each item.
 */
export class LexicalIndex {
  /** Times a search was answered from this copy (tests and benches check which path answered). */
  searches = 0;

  constructor(
    readonly applicationId: number,
    /** `knowledge_index_stats.version` (as text: it is a bigint) the copy was read at. */
    readonly version: string,
    readonly chunkCount: number,
    readonly tokenTotal: number,
    /** The text-search configurations that have postings, ascending. */
    readonly configs: number[],
    /** ts_config → lexeme → key number. */
    private readonly keys: Map<number, Map<string, number>>,
    /** Key k's postings are [starts[k], starts[k + 1]). */
    private readonly starts: Int32Array,
    /** Per posting: the chunk's position in `chunkIds` (ascending, so chunk id order). */
    private readonly postingChunks: Int32Array,
    private readonly postingTfs: Uint16Array,
    private readonly chunkIds: Int32Array,
    private readonly chunkLengths: Int32Array,
    /**
     * Per chunk position: 1 when its item is switched off (decision 071), null when none is. Part
     * of the version: switching an item bumps `knowledge_index_stats.version` (update-item.ts).
     */
    private readonly switchedOff: Uint8Array | null,
    /** Approximate memory held, for the cache budget. */
    readonly bytes: number,
  ) {}

  get postings(): number {
    return this.postingChunks.length;
  }

  /**
   * BM25_SQL's ranking, computed from the copy. `terms` are BM25_SQL's `q` rows: each query word's
   * lexeme in each configuration, stop words already dropped.
   */
  search(
    terms: readonly { w: string; ts_config: number; lexeme: string }[],
    limit: number,
    pruning: { largeCollection: number; commonWordFraction: number },
    bm25: { k1: number; b: number },
  ): RankedChunk[] {
    this.searches++;
    if (limit <= 0) return [];
    const n = this.chunkCount;
    const avgdl = Math.max(this.tokenTotal / Math.max(n, 1), 1);

    // Document frequency per word, over all its lexemes (one per configuration).
    const words = new Map<string, { df: number; keys: number[] }>();
    for (const term of terms) {
      let word = words.get(term.w);
      if (!word) {
        word = { df: 0, keys: [] };
        words.set(term.w, word);
      }
      const key = this.keys.get(term.ts_config)?.get(term.lexeme);
      if (key !== undefined) {
        word.keys.push(key);
        word.df += this.starts[key + 1]! - this.starts[key]!;
      }
    }
    let kept = [...words.values()];
    if (n >= pruning.largeCollection) {
      const cap = Math.floor(n * pruning.commonWordFraction);
      // A word absent from the knowledge counts as rare here, as it does in BM25_SQL.
      if (kept.some((word) => word.df <= cap)) kept = kept.filter((word) => word.df <= cap);
    }

    // BM25_SQL evaluates k1 + 1, 1 - b and b × length as exact decimals (numeric) before they
    // meet a float8; integer arithmetic gives the same doubles, so each term is the same number.
    const k1 = decimal(bm25.k1);
    const b = decimal(bm25.b);
    const k1Plus1 = (k1.units + k1.scale) / k1.scale;
    const oneMinusB = (b.scale - b.units) / b.scale;
    const k1Float = k1.units / k1.scale;

    const scores = this.scratch();
    const touched: number[] = [];
    for (const word of kept) {
      if (word.df === 0) continue;
      const idf = Math.log(1 + (n - word.df + 0.5) / (word.df + 0.5));
      for (const key of word.keys) {
        for (let p = this.starts[key]!, end = this.starts[key + 1]!; p < end; p++) {
          const chunk = this.postingChunks[p]!;
          const tf = this.postingTfs[p]!;
          const bLength = (b.units * this.chunkLengths[chunk]!) / b.scale;
          const term = (idf * tf * k1Plus1) / (tf + k1Float * (oneMinusB + bLength / avgdl));
          // Every term is > 0, so a zero score means the chunk was not reached yet.
          if (scores[chunk] === 0) touched.push(chunk);
          scores[chunk] = scores[chunk]! + term;
        }
      }
    }

    const switchedOff = this.switchedOff;
    const candidates = switchedOff ? touched.filter((chunk) => switchedOff[chunk] === 0) : touched;
    const best = topChunks(scores, candidates, limit);
    const ranked = best.map((chunk) => ({ id: this.chunkIds[chunk]!, score: scores[chunk]! }));
    for (const chunk of touched) scores[chunk] = 0;
    return ranked;
  }

  /** Chunks of configuration `tsConfig` that hold `lexeme`. */
  documentFrequency(tsConfig: number, lexeme: string): number {
    const key = this.keys.get(tsConfig)?.get(lexeme);
    return key === undefined ? 0 : this.starts[key + 1]! - this.starts[key]!;
  }

  /** Every posting of the copy, as knowledge_postings rows (tests compare the two). */
  *rows(): Generator<{
    ts_config: number;
    lexeme: string;
    chunk_id: number;
    tf: number;
    chunk_length: number;
  }> {
    for (const [tsConfig, lexemes] of this.keys) {
      for (const [lexeme, key] of lexemes) {
        for (let p = this.starts[key]!; p < this.starts[key + 1]!; p++) {
          const chunk = this.postingChunks[p]!;
          yield {
            ts_config: tsConfig,
            lexeme,
            chunk_id: this.chunkIds[chunk]!,
            tf: this.postingTfs[p]!,
            chunk_length: this.chunkLengths[chunk]!,
          };
        }
      }
    }
  }

  private scores: Float64Array | undefined;

  /** One score per chunk, all zero; reused (scoring is synchronous, so never shared). */
  private scratch(): Float64Array {
    this.scores ??= new Float64Array(this.chunkIds.length);
    return this.scores;
  }
}

/** A decimal constant as units / scale, as SQL reads the literal `${x}`. */
function decimal(x: number): { units: number; scale: number } {
  const fraction = String(x).split('.')[1] ?? '';
  const scale = 10 ** fraction.length;
  return { units: Math.round(x * scale), scale };
}

/** The `limit` best of `candidates` by score descending, then chunk id ascending. */
function topChunks(scores: Float64Array, candidates: number[], limit: number): number[] {
  const better = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b);
  if (candidates.length <= limit) return candidates.sort((a, b) => (better(a, b) ? -1 : 1));
  // A heap of the best so far with the worst of them on top: O(candidates × log limit).
  const heap: number[] = [];
  const siftDown = (from: number) => {
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && better(heap[worst]!, heap[left]!)) worst = left;
      if (right < heap.length && better(heap[worst]!, heap[right]!)) worst = right;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst]!, heap[i]!];
      i = worst;
    }
  };
  for (const chunk of candidates) {
    if (heap.length < limit) {
      heap.push(chunk);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!better(heap[parent]!, heap[i]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (better(chunk, heap[0]!)) {
      heap[0] = chunk;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : 1));
}

/**
 * What all cached copies together may hold, approximately (see estimateBytes): 10k chunks of
 * SciFact abstracts (~1M postings) take ~9 MB, so this keeps some 280k such chunks in memory; the
 * least recently searched applications are dropped first. An application bigger than this alone
 * is always searched in SQL.
 */
export const DEFAULT_MEMORY_BUDGET = 256 * 1024 * 1024;
/** A rebuild waits at least this long after the previous build of the same application… */
const MIN_REBUILD_INTERVAL_MS = 5_000;
/** …and at least this many times as long as that build took, so builds use ≤ 10% of the time. */
const REBUILD_INTERVAL_FACTOR = 10;
/** After an application was found too big for the budget. */
const TOO_BIG_RETRY_MS = 10 * 60_000;
/** Chunks read per statement while building: each is a short query (~25 ms on PGlite at 1,000). */
const BUILD_BATCH = 1_000;

interface DatabaseCache {
  indexes: Map<number, LexicalIndex>;
  builds: Map<number, { running?: Promise<LexicalIndex | undefined>; notBefore: number }>;
}

const caches = new WeakMap<Database, DatabaseCache>();
/** Every cached copy, least recently used first (a Map keeps insertion order). */
const recency = new Map<LexicalIndex, DatabaseCache>();
let memoryBudget = DEFAULT_MEMORY_BUDGET;
let cachedBytes = 0;

function cacheOf(database: Database): DatabaseCache {
  let cache = caches.get(database);
  if (!cache) {
    cache = { indexes: new Map(), builds: new Map() };
    caches.set(database, cache);
  }
  return cache;
}

/** The cached copy of an application's postings, whatever its version (the caller checks it). */
export function cachedLexicalIndex(database: Database, applicationId: number): LexicalIndex | undefined {
  const index = caches.get(database)?.indexes.get(applicationId);
  if (index) {
    recency.delete(index);
    recency.set(index, cacheOf(database));
  }
  return index;
}

/** Forgets a copy found out of date: it cannot answer any more, and it holds memory. */
export function dropLexicalIndex(database: Database, index: LexicalIndex): void {
  const cache = caches.get(database);
  if (cache?.indexes.get(index.applicationId) === index) forget(cache, index);
}

function forget(cache: DatabaseCache, index: LexicalIndex) {
  if (cache.indexes.get(index.applicationId) === index) cache.indexes.delete(index.applicationId);
  if (recency.delete(index)) cachedBytes -= index.bytes;
}

function install(cache: DatabaseCache, index: LexicalIndex) {
  const previous = cache.indexes.get(index.applicationId);
  if (previous) forget(cache, previous);
  cache.indexes.set(index.applicationId, index);
  recency.set(index, cache);
  cachedBytes += index.bytes;
  keepWithinBudget();
}

function keepWithinBudget() {
  for (const [oldest, owner] of recency) {
    if (cachedBytes <= memoryBudget) break;
    forget(owner, oldest);
  }
}

/**
 * Starts building a copy of the application's postings in the background, unless one is being
 * built or the last build was too recent. Never throws: failures are logged and the searches keep
 * using SQL.
 */
export function requestLexicalIndexBuild(database: Database, applicationId: number): void {
  const state = cacheOf(database).builds.get(applicationId);
  if (state?.running || (state && Date.now() < state.notBefore)) return;
  startBuild(database, applicationId).catch((error: unknown) => {
    if (!isClosed(database))
      console.warn(`lexical index of application ${applicationId}: build failed`, error);
  });
}

/**
 * Builds (or waits for the build of) the application's copy now, ignoring the throttle, and
 * returns it: undefined when there is nothing to copy, the knowledge changed during the build, or
 * it does not fit the budget. For benches and tests, which must measure or check the cached path.
 */
export async function warmLexicalIndex(
  database: Database,
  applicationId: number,
): Promise<LexicalIndex | undefined> {
  const running = cacheOf(database).builds.get(applicationId)?.running;
  if (running) await running.catch(() => undefined);
  const cached = caches.get(database)?.indexes.get(applicationId);
  if (cached) {
    const { rows } = await database.query<{ version: string }>(
      'SELECT version::text AS version FROM knowledge_index_stats WHERE application_id = $1',
      [applicationId],
    );
    if (rows[0]?.version === cached.version) return cached;
  }
  return startBuild(database, applicationId);
}

function startBuild(database: Database, applicationId: number): Promise<LexicalIndex | undefined> {
  const cache = cacheOf(database);
  const state = cache.builds.get(applicationId) ?? { notBefore: 0 };
  cache.builds.set(applicationId, state);
  const started = Date.now();
  const running = buildLexicalIndex(database, applicationId, memoryBudget).then(
    (result) => {
      const spent = Date.now() - started;
      state.notBefore =
        Date.now() +
        (result === 'too big'
          ? TOO_BIG_RETRY_MS
          : Math.max(MIN_REBUILD_INTERVAL_MS, spent * REBUILD_INTERVAL_FACTOR));
      state.running = undefined;
      if (result instanceof LexicalIndex) {
        install(cache, result);
        return result;
      }
      return undefined;
    },
    (error: unknown) => {
      state.notBefore = Date.now() + MIN_REBUILD_INTERVAL_MS;
      state.running = undefined;
      throw error;
    },
  );
  state.running = running;
  return running;
}

/** A build cut short by closing the database (tests, shutdown) is not worth a warning. */
function isClosed(database: Database): boolean {
  const raw = database.raw as { closed?: boolean; ended?: boolean };
  return Boolean(raw.closed || raw.ended);
}

/**
 * Reads the application's postings at one version. Not in a transaction: on PGlite a transaction
 * would hold the only connection for the whole build, while short statements let requests run in
 * between. Consistency comes from the version instead: every statement also reads it, and as it
 * only ever grows, the same version at the first and the last statement means nothing changed in
 * between (a change during the build would leave the copy out of date at once anyway).
 *
 * The postings are read through their source, the chunks' stored tsvectors: index-chunks.ts writes
 * one posting per tsvector entry (tf = number of positions, chunk_length = token_count) in the
 * statement that writes the chunk. On PGlite this is ~6× less database time than reading the
 * postings rows, and it probes the chunks' primary key, a plan that needs no table statistics
 * (PGlite is never analyzed). lexical-index.test.ts checks the copy against knowledge_postings.
 */
async function buildLexicalIndex(
  database: Database,
  applicationId: number,
  budget: number,
): Promise<LexicalIndex | 'changed' | 'too big' | undefined> {
  const { rows: heads } = await database.query<{
    version: string;
    chunk_count: number;
    token_total: number;
    ids: number[] | null;
    off: number[] | null;
  }>(
    `SELECT s.version::text AS version, s.chunk_count::float8 AS chunk_count,
            s.token_total::float8 AS token_total,
            (SELECT array_agg(c.id ORDER BY c.id) FROM knowledge_chunks c
             WHERE c.application_id = s.application_id) AS ids,
            (SELECT array_agg(c.id) FROM knowledge_items i JOIN knowledge_chunks c ON c.item_id = i.id
             WHERE i.application_id = s.application_id AND NOT i.enabled) AS off
     FROM knowledge_index_stats s WHERE s.application_id = $1`,
    [applicationId],
  );
  const head = heads[0];
  if (!head) return undefined;
  const ids = head.ids ?? [];

  const keys = new Map<number, Map<string, number>>();
  let keyCount = 0;
  let keyChars = 0;
  let keyCounts = new Int32Array(1024);
  let postingKeys = new Int32Array(1024);
  let postingChunks = new Int32Array(1024);
  let postingTfs = new Uint16Array(1024);
  let count = 0;
  const chunkLengths = new Int32Array(ids.length);
  // Per chunk: its id, its length and (once searched) its score.
  const fixedBytes = ids.length * 16;

  for (let from = 0; from < ids.length; from += BUILD_BATCH) {
    const batch = ids.slice(from, from + BUILD_BATCH);
    const { rows } = await database.query<{
      version: string | null;
      id: number;
      ts_config: number;
      token_count: number;
      tsv: string;
    }>(
      `SELECT (SELECT version::text FROM knowledge_index_stats WHERE application_id = $1) AS version,
              c.id, c.ts_config, c.token_count, c.tsv::text AS tsv
       FROM knowledge_chunks c WHERE c.id = ANY($2::int[]) AND c.application_id = $1 ORDER BY c.id`,
      [applicationId, batch],
    );
    if (
      rows.length !== batch.length ||
      rows.some((row, i) => row.version !== head.version || row.id !== batch[i])
    ) {
      return 'changed';
    }
    rows.forEach((row, i) => {
      const chunk = from + i;
      chunkLengths[chunk] = row.token_count;
      let lexemes = keys.get(row.ts_config);
      readTsvector(row.tsv, (lexeme, tf) => {
        if (tf > 0xffff) throw new Error(`term frequency ${tf} does not fit the index`);
        if (!lexemes) {
          lexemes = new Map();
          keys.set(row.ts_config, lexemes);
        }
        let key = lexemes.get(lexeme);
        if (key === undefined) {
          key = keyCount++;
          lexemes.set(detached(lexeme), key);
          keyChars += lexeme.length;
          if (key === keyCounts.length) keyCounts = grow(keyCounts);
        }
        keyCounts[key]!++;
        if (count === postingKeys.length) {
          postingKeys = grow(postingKeys);
          postingChunks = grow(postingChunks);
          postingTfs = grow(postingTfs);
        }
        postingKeys[count] = key;
        postingChunks[count] = chunk;
        postingTfs[count] = tf;
        count++;
      });
    });
    if (estimateBytes(count, keyCount, keyChars) + fixedBytes > budget) return 'too big';
  }

  // Group the postings by key; chunks were read in id order, so each key's list stays in id order.
  const starts = new Int32Array(keyCount + 1);
  for (let k = 0; k < keyCount; k++) starts[k + 1] = starts[k]! + keyCounts[k]!;
  const next = starts.slice(0, keyCount);
  const byKeyChunks = new Int32Array(count);
  const byKeyTfs = new Uint16Array(count);
  for (let p = 0; p < count; p++) {
    const at = next[postingKeys[p]!]!++;
    byKeyChunks[at] = postingChunks[p]!;
    byKeyTfs[at] = postingTfs[p]!;
  }
  return new LexicalIndex(
    applicationId,
    head.version,
    Number(head.chunk_count),
    Number(head.token_total),
    // As BM25_SQL's `used`: the configurations that have postings (a chunk can have none).
    [...keys.keys()].sort((a, b) => a - b),
    keys,
    starts,
    byKeyChunks,
    byKeyTfs,
    Int32Array.from(ids),
    chunkLengths,
    switchedOffPositions(ids, head.off ?? []),
    estimateBytes(count, keyCount, keyChars) + fixedBytes,
  );
}

/** Per chunk position (`ids` ascending): 1 for the chunks in `off`; null when there are none. */
function switchedOffPositions(ids: readonly number[], off: readonly number[]): Uint8Array | null {
  if (off.length === 0) return null;
  const offIds = new Set(off);
  return Uint8Array.from(ids, (id) => (offIds.has(id) ? 1 : 0));
}

/**
 * A copy of a string that does not point into the string it was sliced from: V8 keeps a slice's
 * whole parent alive (here a batch's tsvector text, over a megabyte), and the keys stay for long.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

/** Typed arrays per posting and key, plus what V8 spends on a Map entry and its string key. */
function estimateBytes(postings: number, keys: number, keyChars: number): number {
  return postings * 6 + keys * (4 + 64) + keyChars;
}

function grow<T extends Int32Array | Uint16Array>(array: T): T {
  const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
  larger.set(array);
  return larger;
}

/**
 * Calls `add` with each lexeme of a tsvector's text form and its number of positions, which is
 * what index-chunks.ts stores as tf: `'a':1,3 'it''s':2A` → (a, 2), (it's, 1). In that form a
 * quote is doubled and a backslash escaped.
 */
export function readTsvector(text: string, add: (lexeme: string, tf: number) => void): void {
  const QUOTE = 39;
  const BACKSLASH = 92;
  const COLON = 58;
  const COMMA = 44;
  const SPACE = 32;
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) !== QUOTE) throw new Error(`unexpected tsvector text at ${i}`);
    i++;
    let lexeme = '';
    let from = i;
    for (;;) {
      if (i >= text.length) throw new Error('unterminated lexeme in tsvector text');
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) {
          lexeme += text.slice(from, i + 1);
          i += 2;
          from = i;
          continue;
        }
        lexeme += text.slice(from, i);
        i++;
        break;
      }
      if (c === BACKSLASH) {
        lexeme += text.slice(from, i);
        from = i + 1;
        i += 2;
        continue;
      }
      i++;
    }
    let tf = 0;
    if (text.charCodeAt(i) === COLON) {
      tf = 1;
      for (i++; i < text.length && text.charCodeAt(i) !== SPACE; i++) {
        if (text.charCodeAt(i) === COMMA) tf++;
      }
    }
    add(lexeme, tf);
    i++; // the space between entries
  }
}

/** Test hooks. */
export function lexicalIndexState(
  database: Database,
  applicationId: number,
): { version: string; chunks: number; postings: number; bytes: number; searches: number } | undefined {
  const index = caches.get(database)?.indexes.get(applicationId);
  return (
    index && {
      version: index.version,
      chunks: index.chunkCount,
      postings: index.postings,
      bytes: index.bytes,
      searches: index.searches,
    }
  );
}

/** Sets the memory budget (tests use a tiny one); returns the previous one. */
export function setLexicalIndexBudget(bytes: number): number {
  const previous = memoryBudget;
  memoryBudget = bytes;
  keepWithinBudget();
  return previous;
}

/** Settles when no build of this database's copies is running (tests await it before closing). */
export async function lexicalIndexBuildsSettled(database: Database): Promise<void> {
  const builds = [...(caches.get(database)?.builds.values() ?? [])];
  await Promise.all(builds.map((state) => state.running?.catch(() => undefined)));
}
