import { z } from 'zod';
import { freeText, oneLine } from './text.ts';

export const KNOWLEDGE_ITEM_TYPES = ['file', 'text', 'url'] as const;
export const KNOWLEDGE_ITEM_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;

/** File extensions a `file` item may have; the content is checked too (sniffed, not trusted). */
export const KNOWLEDGE_FILE_EXTENSIONS = [
  '.pdf',
  '.doc',
  '.docx',
  '.txt',
  '.md',
  '.html',
  '.htm',
  // Read with OCR (decision 072).
  '.png',
  '.jpg',
  '.jpeg',
  '.webp',
] as const;
/** What the upload control offers: every extension the API takes (spec §2 plus .docx and web pages). */
export const KNOWLEDGE_FILE_ACCEPT = KNOWLEDGE_FILE_EXTENSIONS.join(',');

/** Caps, with the messages that name them. */
export const KNOWLEDGE_LIMITS = {
  itemsPerRequest: 100,
  textChars: 200_000,
  titleChars: 255,
  urlChars: 2048,
  /** Levels of same-site links a URL item may follow. */
  crawlDepthMax: 2,
  /** Pages one crawl may add, the start page excluded. */
  crawlPages: 20,
} as const;

export const ZKnowledgeItemType = z.enum(KNOWLEDGE_ITEM_TYPES);
export const ZKnowledgeItemStatus = z.enum(KNOWLEDGE_ITEM_STATUSES);

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
  /** Its text was read from images with OCR (a scanned PDF, a photo): it may hold misread words. */
  read_with_ocr: z.boolean(),
  indexed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TKnowledgeItem = z.infer<typeof ZKnowledgeItem>;

/** What `PATCH …/knowledge/{itemId}/` changes: at least one field. */
export const ZUpdateKnowledgeItemRequest = z
  .strictObject({
    enabled: z.boolean({ error: 'Must be true or false' }).optional(),
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

/**
 * The fields of knowledge items in a `multipart/form-data` body (or a JSON object of strings),
 * shown for the first item: `items[1].…` up to `items[99].…` repeat them. The OpenAPI document
 * shows this; the server reads the fields itself (apps/api `readItems`), so every problem is
 * reported at once, keyed by the field as sent.
 */
export const ZKnowledgeItemsForm = z.object({
  'items[0].type': ZKnowledgeItemType.describe('file | text | url'),
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
});
