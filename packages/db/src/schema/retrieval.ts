import {
  bigint,
  customType,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { knowledgeItems } from './knowledge.ts';

/** A stored text-search document; written by SQL (`to_tsvector`), never by the application. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A pgvector `vector` without a fixed dimension: applications use embedding models of different
 * sizes, so the column is untyped and each row records its own `dimensions`. HNSW indexes are
 * partial expression indexes per dimension (`embedding::vector(N) … WHERE dimensions = N`),
 * created in a custom migration because drizzle-kit cannot express them.
 */
const untypedVector = customType<{ data: string }>({ dataType: () => 'vector' });

/** One passage of a knowledge item, as retrieval returns it and citations point at it. */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: serial('id').primaryKey(),
    itemId: integer('item_id')
      .notNull()
      .references(() => knowledgeItems.id, { onDelete: 'cascade' }),
    /** Denormalised from the item so every retrieval query is scoped without a join. */
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** Position of the chunk within its item, from 0. */
    ordinal: integer('ordinal').notNull(),
    content: text('content').notNull(),
    /** 1-based page of a paged source (PDF); null otherwise. */
    page: integer('page'),
    /** Heading path, e.g. `Setup › Installing`; null before the first heading. */
    heading: text('heading'),
    /** Character offsets of `content` in the parsed document's text (sections joined by a blank line). */
    startOffset: integer('start_offset').notNull(),
    endOffset: integer('end_offset').notNull(),
    /** ISO 639-1 code of the item's detected language, null when unknown. */
    language: text('language'),
    /** Index into TEXT_SEARCH_CONFIGS (apps/api/src/rag/language.ts): the stemming used for `tsv`. */
    tsConfig: smallint('ts_config').notNull(),
    /** BM25 document length: the number of indexed tokens (sum of term frequencies). */
    tokenCount: integer('token_count').notNull(),
    /** Title, heading and content, as lexemes of the item's configuration. */
    tsv: tsvector('tsv').notNull(),
  },
  (t) => [
    index('knowledge_chunks_item_idx').on(t.itemId, t.ordinal),
    index('knowledge_chunks_app_idx').on(t.applicationId, t.tokenCount),
    // The stored tsvector is already stemmed per item, so the GIN index is language-neutral.
    index('knowledge_chunks_tsv_idx').using('gin', t.tsv),
  ],
);

/**
 * BM25 postings (DESIGN §5): one row per (lexeme, chunk) with its term frequency and the chunk's
 * length, so a query scores from this table alone; document frequencies are counted per
 * application from the same rows at query time, so they are never stale.
 */
export const knowledgePostings = pgTable(
  'knowledge_postings',
  {
    applicationId: integer('application_id').notNull(),
    tsConfig: smallint('ts_config').notNull(),
    lexeme: text('lexeme').notNull(),
    chunkId: integer('chunk_id')
      .notNull()
      .references(() => knowledgeChunks.id, { onDelete: 'cascade' }),
    tf: integer('tf').notNull(),
    chunkLength: integer('chunk_length').notNull(),
  },
  (t) => [
    // Migration 0009 adds INCLUDE (tf, chunk_length), which drizzle-kit cannot express: a query
    // then reads a lexeme's postings from the index alone (index-only scan), without the heap.
    uniqueIndex('knowledge_postings_key').on(t.applicationId, t.tsConfig, t.lexeme, t.chunkId),
    index('knowledge_postings_chunk_idx').on(t.chunkId),
  ],
);

/** The embedding of a chunk by one embedding model; a model change leaves old rows unmatched. */
export const knowledgeChunkVectors = pgTable(
  'knowledge_chunk_vectors',
  {
    chunkId: integer('chunk_id')
      .primaryKey()
      .references(() => knowledgeChunks.id, { onDelete: 'cascade' }),
    applicationId: integer('application_id').notNull(),
    /** `Embedder.id` of the model that produced the vector. */
    modelId: text('model_id').notNull(),
    dimensions: integer('dimensions').notNull(),
    embedding: untypedVector('embedding').notNull(),
  },
  (t) => [index('knowledge_chunk_vectors_app_idx').on(t.applicationId, t.modelId)],
);

/**
 * BM25 collection statistics per application (number of chunks, total length), kept by statement
 * triggers on `knowledge_chunks` (migration 0008) so a query reads one row instead of counting
 * every chunk; the triggers also see deletes cascading from items and applications.
 */
export const knowledgeIndexStats = pgTable('knowledge_index_stats', {
  applicationId: integer('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  chunkCount: bigint('chunk_count', { mode: 'number' }).notNull().default(0),
  tokenTotal: bigint('token_total', { mode: 'number' }).notNull().default(0),
  /** Bumped by the same triggers on every change of the chunks (and so of their postings): a cached index of this version is current. */
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
