import { z } from 'zod';
import { ZChatroomSource } from './chat.ts';
import { ZQaAnswer } from './knowledge.ts';

/**
 * The owner's "Needs attention" inbox of one application (issue 12, decision 048): visitors
 * waiting for a person, questions the knowledge did not cover (grouped by similarity), and answers
 * rated 👎.
 */

/** How many entries each section lists at most (oldest waits, latest questions and ratings). */
export const ATTENTION_LIST_LIMIT = 100;
/** How much of a 👎 answer the inbox shows. */
export const ATTENTION_EXCERPT_CHARS = 280;

const ZChatroomRef = z.object({ uuid: z.uuid(), name: z.string() });

export const ZWaitingConversation = z.object({
  uuid: z.uuid(),
  name: z.string(),
  source: ZChatroomSource,
  /** When the visitor asked for a person (ISO 8601). */
  waiting_since: z.string(),
  /** The page a widget conversation started on. */
  started_on: z.string().nullable(),
});
export type TWaitingConversation = z.infer<typeof ZWaitingConversation>;

export const ZUnansweredQuestion = z.object({
  /** The group's id: answer or dismiss it by this. */
  uuid: z.uuid(),
  /** The first question of the group, as asked. */
  question: z.string(),
  /** How many times a question of this group went unanswered. */
  count: z.number().int(),
  last_asked_at: z.string(),
  /**
   * The conversations it was asked in, latest first, with when it was last asked there: a
   * conversation's name is its first question, which may be another one than this.
   */
  chatrooms: z.array(ZChatroomRef.extend({ asked_at: z.string() })),
});
export type TUnansweredQuestion = z.infer<typeof ZUnansweredQuestion>;

export const ZNegativeFeedback = z.object({
  /** The rated answer's message uuid: dismiss it by this. */
  message_uuid: z.uuid(),
  /** The question it answered ('' when none is found). */
  question: z.string(),
  /** The start of the answer. */
  answer_excerpt: z.string(),
  answered_at: z.string(),
  chatroom: ZChatroomRef,
});
export type TNegativeFeedback = z.infer<typeof ZNegativeFeedback>;

export const ZAttention = z.object({
  /** Oldest first. */
  waiting: z.array(ZWaitingConversation),
  /** Most recently asked first. */
  unanswered: z.array(ZUnansweredQuestion),
  /** Newest first. */
  negative_feedback: z.array(ZNegativeFeedback),
});
export type TAttention = z.infer<typeof ZAttention>;

/**
 * What the sidebar's badge counts, the page's three sections: visitors waiting, open groups of
 * unanswered questions, and bad answers not dismissed.
 */
export const ZAttentionCount = z.object({
  waiting: z.number().int(),
  unanswered: z.number().int(),
  negative_feedback: z.number().int(),
});
export type TAttentionCount = z.infer<typeof ZAttentionCount>;

export const ZUnansweredParams = z.object({
  appId: z.uuid({ error: 'Not a valid id' }),
  id: z.uuid({ error: 'Not a valid id' }),
});
export const ZFeedbackDismissParams = z.object({
  appId: z.uuid({ error: 'Not a valid id' }),
  messageId: z.uuid({ error: 'Not a valid id' }),
});

/** The owner's answer: with the question, it becomes a Q&A pair (answered word for word). */
export const ZAnswerUnansweredRequest = z.object({ answer: ZQaAnswer });
export type TAnswerUnansweredRequest = z.infer<typeof ZAnswerUnansweredRequest>;
