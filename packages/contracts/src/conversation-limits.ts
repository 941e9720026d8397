/**
 * The conversation log's bounds: read by the API and the web app. No zod here: the log's filters
 * import this without shipping the schemas (conversations.ts builds them on it).
 */
export const CONVERSATION_SEARCH_MAX = 200;
export const CONVERSATION_PAGE_DEFAULT = 50;
export const CONVERSATION_PAGE_MAX = 100;
