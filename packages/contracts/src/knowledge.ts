import { z } from 'zod';
import { KNOWLEDGE_FILE_EXTENSIONS, KNOWLEDGE_LIMITS } from './knowledge-limits.ts';
import { freeText, oneLine } from './text.ts';

export const KNOWLEDGE_ITEM_TYPES = ['file', 'text', 'url', 'qa'] as const;
export const KNOWLEDGE_ITEM_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;

export * from './knowledge-limits.ts';

export const ZKnowledgeItemType = z.enum(KNOWLEDGE_ITEM_TYPES);
export const ZKnowledgeItemStatus = z.enum(KNOWLEDGE_ITEM_STATUSES);

/** A Q&A pair's question or another phrasing of it: kept on one line (pasted line breaks become spaces). */
export const ZQaQuestion = freeText()
  .overwrite((v) => v.replace(/\s+/g, ' '))
  .trim()
  .min(1, 'Required')
  .max(KNOWLEDGE_LIMITS.qaQuestionChars, `At most ${KNOWLEDGE_LIMITS.qaQuestionChars} characters`);

/** A pair's answer; a form's line ends (CRLF) are stored as the owner sees them, one newline each. */
export const ZQaAnswer = freeText()
  .overwrite((v) => v.replace(/\r\n?/g, '\n'))
  .trim()
  .min(1, 'Required')
  .max(
    KNOWLEDGE_LIMITS.qaAnswerChars,
    `At most ${KNOWLEDGE_LIMITS.qaAnswerChars.toLocaleString('en')} characters`,
  );

export const ZQaAlternatives = z
  .array(ZQaQuestion, { error: 'A list of questions' })
  .max(KNOWLEDGE_LIMITS.qaAlternatives, `At most ${KNOWLEDGE_LIMITS.qaAlternatives} other phrasings`);

/** A Q&A pair as an item shows it. */
export const ZQaPair = z.object({
  question: z.string(),
  alternatives: z.array(z.string()),
  answer: z.string(),
});
export type TQaPair = z.infer<typeof ZQaPair>;

/** One item as the list endpoint (and every `kb_updates` event) returns it. */
export const ZKnowledgeItem = z.object({
  uuid: z.uuid(),
  type: ZKnowledgeItemType,
  title: z.string(),
  /** The URL of a `url` item, the original file name of a `file` item, null for text. */
  source: z.string().nullable(),
  status: ZKnowledgeItemStatus,
  /** 0–100. */
  progress: z.number().int(),
  /** Why it failed, in words a person understands; null unless `failed`. */
  error: z.string().nullable(),
  /**
   * Whether a re-sync can help a `failed` item: false when a file or text failed on its own content
   * (corrupt, encrypted, no text …), which reads the same way every time; true otherwise.
   */
  retryable: z.boolean(),
  mime_type: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
  language: z.string().nullable(),
  chunk_count: z.number().int(),
  /** Off: left out of search and answers (its chunks are kept; switching it on needs no re-indexing). */
  enabled: z.boolean(),
  /** A `qa` item's pair (answered word for word when a question matches it); null for other types. */
  qa: ZQaPair.nullable(),
  /** Its text was read from images with OCR (a scanned PDF, a photo): it may hold misread words. */
  read_with_ocr: z.boolean(),
  indexed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Scheduled re-sync (url items and site roots): every this many hours, or null (never). */
  refresh_interval_hours: z.number().int().nullable(),
  last_checked_at: z.string().nullable(),
  /** When a check last found new content (and re-indexed it). */
  last_changed_at: z.string().nullable(),
  next_check_at: z.string().nullable(),
  /** The uuid of the site import this page belongs to; null for items added by a person. */
  site_root: z.uuid().nullable(),
  /** A whole-site import's root: its options and its pages' progress; null for other items. */
  site: z
    .object({
      sitemap: z.boolean(),
      max_pages: z.number().int(),
      include: z.array(z.string()),
      exclude: z.array(z.string()),
      /** Pages found (listed or linked, allowed by robots.txt and the filters, within max_pages). */
      found: z.number().int(),
      fetched: z.number().int(),
      indexed: z.number().int(),
      failed: z.number().int(),
    })
    .nullable(),
});
export type TKnowledgeItem = z.infer<typeof ZKnowledgeItem>;

const HOURS = `null, or a whole number of hours from 1 to ${KNOWLEDGE_LIMITS.refreshHoursMax}`;
/** A scheduled re-sync's interval: null (never) or 1–720 hours. */
export const ZRefreshIntervalHours = z
  .number({ error: HOURS })
  .int(HOURS)
  .min(1, HOURS)
  .max(KNOWLEDGE_LIMITS.refreshHoursMax, HOURS)
  .nullable();

/** What `PATCH …/knowledge/{itemId}/` changes: at least one field. */
export const ZUpdateKnowledgeItemRequest = z
  .strictObject({
    enabled: z.boolean({ error: 'Must be true or false' }).optional(),
    /** A `qa` item's content: changing it indexes the item again. */
    question: ZQaQuestion.optional(),
    answer: ZQaAnswer.optional(),
    alternatives: ZQaAlternatives.optional(),
    refresh_interval_hours: ZRefreshIntervalHours.optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'Give at least one field to change');
export type TUpdateKnowledgeItemRequest = z.infer<typeof ZUpdateKnowledgeItemRequest>;
export const ZKnowledgeItemList = z.array(ZKnowledgeItem);

/** A chunk as the item preview shows it. */
export const ZKnowledgeChunkPreview = z.object({
  id: z.number().int(),
  content: z.string(),
  page: z.number().int().nullable(),
  heading: z.string().nullable(),
});
export type TKnowledgeChunkPreview = z.infer<typeof ZKnowledgeChunkPreview>;

export const ZKnowledgeItemDetail = ZKnowledgeItem.extend({
  /** The first chunks of the item, in document order. */
  chunks: z.array(ZKnowledgeChunkPreview),
});
export type TKnowledgeItemDetail = z.infer<typeof ZKnowledgeItemDetail>;

export const ZKnowledgeItemParams = z.object({
  appId: z.uuid({ error: 'Not a valid id' }),
  itemId: z.uuid({ error: 'Not a valid id' }),
});

/** The payload of a `kb_updates` realtime event. */
export const ZKbUpdateEvent = z.object({
  application_uuid: z.uuid(),
  item: ZKnowledgeItem,
  /** Present (true) when the item was deleted. */
  deleted: z.boolean().optional(),
});
export type TKbUpdateEvent = z.infer<typeof ZKbUpdateEvent>;

/** A text item's body: free text, so stray control characters are removed (text.ts). */
export const ZItemText = freeText()
  .trim()
  .min(1, 'Required')
  .max(KNOWLEDGE_LIMITS.textChars, `At most ${KNOWLEDGE_LIMITS.textChars.toLocaleString('en')} characters`);

export const ZItemTitle = oneLine()
  .trim()
  .max(KNOWLEDGE_LIMITS.titleChars, `At most ${KNOWLEDGE_LIMITS.titleChars} characters`);

export const ZItemUrl = oneLine()
  .trim()
  .min(1, 'Required')
  .max(KNOWLEDGE_LIMITS.urlChars, `At most ${KNOWLEDGE_LIMITS.urlChars} characters`)
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Enter a web address starting with http:// or https://');

export const ZItemCrawlDepth = z.coerce
  .number({ error: `A whole number from 0 to ${KNOWLEDGE_LIMITS.crawlDepthMax}` })
  .int(`A whole number from 0 to ${KNOWLEDGE_LIMITS.crawlDepthMax}`)
  .min(0, `A whole number from 0 to ${KNOWLEDGE_LIMITS.crawlDepthMax}`)
  .max(KNOWLEDGE_LIMITS.crawlDepthMax, `A whole number from 0 to ${KNOWLEDGE_LIMITS.crawlDepthMax}`);

const ZPathGlobs = z
  .array(
    oneLine()
      .trim()
      .min(1, 'A path glob such as /docs/**')
      .max(KNOWLEDGE_LIMITS.siteGlobChars, `At most ${KNOWLEDGE_LIMITS.siteGlobChars} characters`),
    { error: 'A list of path globs' },
  )
  .max(KNOWLEDGE_LIMITS.siteGlobs, `At most ${KNOWLEDGE_LIMITS.siteGlobs} globs`)
  .default([]);

const PAGES = `A whole number from 1 to ${KNOWLEDGE_LIMITS.sitePagesMax}`;
/** A whole-site import (`items[i].crawl`, JSON): up to max_pages same-site pages whose paths match. */
export const ZSiteCrawl = z.strictObject(
  {
    max_pages: z
      .number({ error: PAGES })
      .int(PAGES)
      .min(1, PAGES)
      .max(KNOWLEDGE_LIMITS.sitePagesMax, PAGES)
      .default(100),
    include: ZPathGlobs,
    exclude: ZPathGlobs,
  },
  { error: 'An object {max_pages, include, exclude}' },
);
export type TSiteCrawl = z.infer<typeof ZSiteCrawl>;

/**
 * The fields of knowledge items in a `multipart/form-data` body (or a JSON object of strings),
 * shown for the first item: `items[1].…` up to `items[99].…` repeat them. The OpenAPI document
 * shows this; the server reads the fields itself (apps/api `readItems`), so every problem is
 * reported at once, keyed by the field as sent.
 */
export const ZKnowledgeItemsForm = z.object({
  'items[0].type': ZKnowledgeItemType.describe('file | text | url | qa'),
  'items[0].file': z
    .file()
    .optional()
    .describe(`A file item's file (${KNOWLEDGE_FILE_EXTENSIONS.join(', ')}); multipart only`),
  'items[0].value': z.string().optional().describe("A text item's text, or a url item's address"),
  'items[0].title': ZItemTitle.optional().describe('Optional; found in the document when absent'),
  'items[0].crawl_depth': z
    .enum(['0', '1', '2'])
    .optional()
    .describe('url items only: levels of same-site links to follow (default 0)'),
  'items[0].refresh_interval_hours': z
    .string()
    .optional()
    .describe(
      `url items only: re-check the page every 1–${KNOWLEDGE_LIMITS.refreshHoursMax} hours (empty: never)`,
    ),
  'items[0].crawl': z
    .string()
    .optional()
    .describe(
      `url items only, JSON: import the whole site, {"max_pages": 1–${KNOWLEDGE_LIMITS.sitePagesMax} (100), "include": ["/docs/**"], "exclude": []} (path globs); same origin only, robots.txt respected; each page becomes an item of its own`,
    ),
  'items[0].sitemap': z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'url items only: the address is a sitemap.xml (or a sitemap index); its pages are imported as with crawl',
    ),
  'items[0].question': z
    .string()
    .optional()
    .describe('qa items: the question (the title when none is given)'),
  'items[0].answer': z.string().optional().describe('qa items: the answer, given word for word'),
  'items[0].alternatives': z
    .string()
    .optional()
    .describe(
      `qa items, optional: other phrasings of the question, one per line (at most ${KNOWLEDGE_LIMITS.qaAlternatives})`,
    ),
});

/** `POST …/knowledge/qa-import/`: one CSV file of pairs. */
export const ZQaImportForm = z.object({
  file: z
    .file()
    .describe(
      `CSV (UTF-8, BOM or not): question, answer and optional alternatives (separated by |), one pair per row, a header row optional; at most ${KNOWLEDGE_LIMITS.qaImportRows} rows`,
    ),
});
