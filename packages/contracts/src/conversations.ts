import { z } from 'zod';
import { ZChatroom, ZChatroomSource } from './chat.ts';
import {
  CONVERSATION_PAGE_DEFAULT,
  CONVERSATION_PAGE_MAX,
  CONVERSATION_SEARCH_MAX,
} from './conversation-limits.ts';
import { oneLine } from './text.ts';

export {
  CONVERSATION_PAGE_DEFAULT,
  CONVERSATION_PAGE_MAX,
  CONVERSATION_SEARCH_MAX,
} from './conversation-limits.ts';

/** Long enough for any cursor the API hands out (two numbers and an instant, base64url). */
const CURSOR_MAX = 200;

export const ZConversationRating = z.enum(['up', 'down', 'none']);
export const ZConversationStatus = z.enum(['waiting', 'human', 'assistant']);
export const ZExportFormat = z.enum(['csv', 'jsonl']);
export type TExportFormat = z.infer<typeof ZExportFormat>;

const ZDate = z.iso.date({ error: 'Must be a date (YYYY-MM-DD)' });

/**
 * The conversation log's filters (decision 065). Query parameters arrive as strings, `source` as a
 * string or, repeated, as an array.
 */
export const ZConversationFilters = z.object({
  q: oneLine({ error: 'Must be text' })
    .trim()
    .max(CONVERSATION_SEARCH_MAX, `At most ${CONVERSATION_SEARCH_MAX} characters`)
    .optional(),
  source: z
    .union([ZChatroomSource, z.array(ZChatroomSource).max(6, 'At most 6 sources')])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  /** The first day (in the owner's time zone) a listed conversation may have started on. */
  from: ZDate.optional(),
  /** The last day, inclusive. */
  to: ZDate.optional(),
  rating: ZConversationRating.optional(),
  status: ZConversationStatus.optional(),
  not_covered: z.literal('true', { error: 'Must be true' }).optional(),
});
export type TConversationFilters = z.infer<typeof ZConversationFilters>;

export const ZConversationQuery = ZConversationFilters.extend({
  /** `next_cursor` of the previous page, as given. */
  cursor: z
    .string()
    .max(CURSOR_MAX, 'Not a valid cursor')
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid cursor')
    .optional(),
  limit: z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1, 'At least 1')
    .max(CONVERSATION_PAGE_MAX, `At most ${CONVERSATION_PAGE_MAX}`)
    .default(CONVERSATION_PAGE_DEFAULT),
});
export type TConversationQuery = z.infer<typeof ZConversationQuery>;

export const ZConversationExportQuery = ZConversationFilters.extend({
  format: ZExportFormat.default('csv'),
});

/** A conversation of the log: the chatroom and what it holds, counted when listed. */
export const ZConversation = ZChatroom.extend({
  message_count: z.number().int(),
  rating_up: z.number().int(),
  rating_down: z.number().int(),
  not_covered_count: z.number().int(),
  /** The sender identifier of the first visitor message (see isVisitorSender); null when the owner alone wrote. */
  visitor: z.string().nullable(),
});
export type TConversation = z.infer<typeof ZConversation>;

export const ZConversationPage = z.object({
  results: z.array(ZConversation),
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: z.string().nullable(),
});
export type TConversationPage = z.infer<typeof ZConversationPage>;

export const ZDeleteVisitorQuery = z.object({
  visitor: oneLine({ error: 'Required' }).trim().min(1, 'Required').max(300, 'At most 300 characters'),
});
export const ZDeleteVisitorResponse = z.object({ deleted: z.number().int() });

/** One exported message (a CSV row, a JSONL line): `role` is `user` (a visitor), `assistant` or `owner`. */
export const EXPORT_COLUMNS = [
  'conversation',
  'source',
  'created_at',
  'sender',
  'role',
  'text',
  'rating',
  'sources',
] as const;
