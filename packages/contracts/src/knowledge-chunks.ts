import { z } from 'zod';

export const CHUNKS_PAGE_DEFAULT = 20;
export const CHUNKS_PAGE_MAX = 100;

/** `GET /api/applications/{appId}/knowledge/{itemId}/chunks/` */
export const ZKnowledgeChunksQuery = z.object({
  limit: z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1, 'At least 1')
    .max(CHUNKS_PAGE_MAX, `At most ${CHUNKS_PAGE_MAX}`)
    .default(CHUNKS_PAGE_DEFAULT),
  /** A previous page's `next_cursor`: the chunks after it. */
  cursor: z
    .string()
    .regex(/^\d{1,9}$/, 'Not a valid cursor')
    .transform(Number)
    .optional(),
});

/** One passage of an item as it was indexed: what search finds and answers cite. */
export const ZKnowledgeChunk = z.object({
  id: z.number().int(),
  /** Position within the item, from 0, in document order. */
  position: z.number().int(),
  content: z.string(),
  /** Heading path of the passage (`Guide › Setup`), else null. */
  heading: z.string().nullable(),
  /** 1-based page of a paged source (PDF), else null. */
  page: z.number().int().nullable(),
});
export type TKnowledgeChunk = z.infer<typeof ZKnowledgeChunk>;

export const ZKnowledgeChunkPage = z.object({
  chunks: z.array(ZKnowledgeChunk),
  /** Pass as `cursor` for the next chunks; null after the last. */
  next_cursor: z.string().nullable(),
  /** The item's chunks in all. */
  total: z.number().int(),
});
export type TKnowledgeChunkPage = z.infer<typeof ZKnowledgeChunkPage>;
