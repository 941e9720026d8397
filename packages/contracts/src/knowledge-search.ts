import { z } from 'zod';
import { freeText } from './text.ts';

export { RELEVANCE_THRESHOLD } from './knowledge-search-rules.ts';

export const SEARCH_TOP_K_DEFAULT = 5;
export const SEARCH_TOP_K_MAX = 50;
export const SEARCH_QUERY_MAX = 2000;

/** `POST /api/applications/{appId}/knowledge/search/` */
export const ZKnowledgeSearchRequest = z.object({
  // Free text (contracts/text.ts): a pasted query loses its control characters.
  query: freeText({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(SEARCH_QUERY_MAX, `At most ${SEARCH_QUERY_MAX} characters`),
  top_k: z
    .number({ error: 'Must be a whole number' })
    .int('Must be a whole number')
    .min(1, 'At least 1')
    .max(SEARCH_TOP_K_MAX, `At most ${SEARCH_TOP_K_MAX}`)
    .default(SEARCH_TOP_K_DEFAULT),
});
export type TKnowledgeSearchRequest = z.infer<typeof ZKnowledgeSearchRequest>;

export const ZKnowledgeSearchResult = z.object({
  item_uuid: z.uuid(),
  item_title: z.string(),
  chunk_id: z.number().int(),
  content: z.string(),
  /** Reciprocal-rank-fusion score of the keyword and (when configured) vector rankings: orders results only. */
  score: z.number(),
  /** 1-based page of a paged source (PDF), else null. */
  page: z.number().int().nullable(),
  /** Heading path of the passage (`Guide › Setup`), else null. */
  heading: z.string().nullable(),
  /**
   * How much of the question the passage holds, 0–100: the answers' relevance measure (the share
   * of the question's weighted words in the passage, and within two consecutive sentences of it,
   * averaged) × 100. Answers use a passage from RELEVANCE_THRESHOLD on (decision 071).
   */
  relevance: z.number().int().min(0).max(100),
  /** Whether an answer to this question would use this passage. */
  used: z.boolean(),
});
export type TKnowledgeSearchResult = z.infer<typeof ZKnowledgeSearchResult>;

/** What the answers would do with the question (their relevance decision, decisions 053 and 062). */
export const ZKnowledgeSearchDecision = z.object({
  /** True: answered from the passages marked `used`; false: declined as not covered. */
  answered: z.boolean(),
  /** When declined: the question's words the most relevant passage lacks (at most 8). */
  missing: z.array(z.string()),
});
export type TKnowledgeSearchDecision = z.infer<typeof ZKnowledgeSearchDecision>;

export const ZKnowledgeSearchResponse = z.object({
  results: z.array(ZKnowledgeSearchResult),
  decision: ZKnowledgeSearchDecision,
});
export type TKnowledgeSearchResponse = z.infer<typeof ZKnowledgeSearchResponse>;
