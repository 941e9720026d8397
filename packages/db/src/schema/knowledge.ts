import {
  type AnyPgColumn,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './accounts.ts';
import { applications } from './applications.ts';

export const KNOWLEDGE_TYPES = ['file', 'text', 'url'] as const;
export const KNOWLEDGE_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;

/** One piece of knowledge of an application: a file, a text or a web page. */
export const knowledgeItems = pgTable(
  'knowledge_items',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    type: text('type', { enum: KNOWLEDGE_TYPES }).notNull(),
    title: text('title').notNull(),
    /** The URL of a `url` item, or the original file name of a `file` item. */
    source: text('source'),
    /** Content-addressed path of the stored original, relative to DATA_DIR/files. */
    filePath: text('file_path'),
    mimeType: text('mime_type'),
    sizeBytes: integer('size_bytes'),
    status: text('status', { enum: KNOWLEDGE_STATUSES }).notNull().default('queued'),
    /** 0–100 while processing. */
    progress: integer('progress').notNull().default(0),
    /** Why it failed, in words a person understands. */
    error: text('error'),
    language: text('language'),
    chunkCount: integer('chunk_count').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    /** For `url` items: how many levels of same-site links to add as items of their own (0–2). */
    crawlDepth: integer('crawl_depth').notNull().default(0),
    /** The item whose crawl added this one (the page cap counts per root); null for items added by a person. */
    crawlRootId: integer('crawl_root_id').references((): AnyPgColumn => knowledgeItems.id, {
      onDelete: 'set null',
    }),
    /**
     * Who is processing the item now: each claim writes a new lease, and a worker only writes
     * progress and results under its own lease, so a stalled worker that wakes up changes nothing.
     */
    lease: text('lease'),
    /** Bumped by the processing worker; a `processing` item whose heartbeat is old has stalled. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    indexedAt: timestamp('indexed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('knowledge_items_app_idx').on(t.applicationId, t.createdAt),
    index('knowledge_items_status_idx').on(t.status, t.heartbeatAt),
  ],
);
