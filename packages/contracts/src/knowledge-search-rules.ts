/**
 * The answers' relevance threshold, shown by the knowledge base's retrieval test. No zod here: that
 * page imports this without shipping the schemas (knowledge-search.ts re-exports it).
 */

/** The relevance (0–100) from which answers use a passage (lower for one whose vector is very similar). */
export const RELEVANCE_THRESHOLD = 59;
