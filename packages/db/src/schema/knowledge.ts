import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './accounts.ts';
import { applications } from './applications.ts';

export const KNOWLEDGE_TYPES = ['file', 'text', 'url', 'qa'] as const;
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
    /** Off: left out of search and answers at once, without re-indexing (its chunks stay). */
    enabled: boolean('enabled').notNull().default(true),
    /**
     * Scheduled re-sync of a `url` item (or of a site's root, for all its pages): every this many
     * hours (1–720), or never (null). Checks are conditional (ETag, Last-Modified, content hash).
     */
    refreshIntervalHours: integer('refresh_interval_hours'),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    lastChangedAt: timestamp('last_changed_at', { withTimezone: true }),
    /** When the re-sync job checks it next; null when not scheduled. */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    /** Failed checks in a row: the next check backs off, and the owner is told once, not every time. */
    checkFailures: integer('check_failures').notNull().default(0),
    etag: text('etag'),
    lastModified: text('last_modified'),
    /** SHA-256 of the fetched content as last indexed: unchanged content is not indexed again. */
    contentHash: text('content_hash'),
    /**
     * A whole-site import on a `url` root: `{max_pages, include, exclude, sitemap}` (path globs);
     * its pages are items whose `crawlRootId` is this one.
     */
    crawlOptions: jsonb('crawl_options').$type<{
      max_pages: number;
      include: string[];
      exclude: string[];
      sitemap: boolean;
    }>(),
    /** Pages a site import found so far (fetched, indexed and failed are its pages' statuses). */
    crawlFound: integer('crawl_found').notNull().default(0),
    /** A `qa` item: the owner's question, its other phrasings, and the answer given word for word. */
    qaQuestion: text('qa_question'),
    qaAlternatives: text('qa_alternatives').array(),
    qaAnswer: text('qa_answer'),
    /** The text was read from images by OCR (a scanned PDF, a picture). */
    readWithOcr: boolean('read_with_ocr').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('knowledge_items_app_idx').on(t.applicationId, t.createdAt),
    index('knowledge_items_status_idx').on(t.status, t.heartbeatAt),
    index('knowledge_items_next_check_idx').on(t.nextCheckAt).where(sql`next_check_at IS NOT NULL`),
    index('knowledge_items_crawl_root_idx').on(t.crawlRootId).where(sql`crawl_root_id IS NOT NULL`),
    // Every answer asks for the application's Q&A pairs first: without it, a scan of all its items.
    index('knowledge_items_qa_idx').on(t.applicationId, t.createdAt, t.id).where(sql`type = 'qa'`),
  ],
);
