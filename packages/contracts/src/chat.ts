import { z } from 'zod';
import { CHATROOM_SOURCES } from './chatroom-rules.ts';
import { MESSAGE_MAX, MESSAGE_STATUSES } from './message-rules.ts';
import { freeText, oneLine } from './text.ts';

export {
  CHATROOM_SOURCE_LABELS,
  CHATROOM_SOURCES,
  isInSidebar,
  type TChatroomSource,
} from './chatroom-rules.ts';
export {
  ASSISTANT_SENDER,
  isFinalStatus,
  isInProgress,
  isVisitorSender,
  MESSAGE_MAX,
  MESSAGE_STATUSES,
  SENDER_PREFIX,
  senderIdentifierOf,
  type TMessageStatus,
} from './message-rules.ts';

/** The placeholder draft chatroom (spec §3, §9): a local draft until its first message is sent. */
export const NEW_CHAT_ID = 'new_chat';
export const NEW_CHAT_NAME = 'New Chat';
export const CHATROOM_NAME_MAX = 60;

export const ZMessageStatus = z.enum(MESSAGE_STATUSES);
export const ZFeedback = z.enum(['up', 'down']);
export type TFeedback = z.infer<typeof ZFeedback>;

/** A cited passage, listed in an answer's `metadata.sources`; `index` is the `[n]` used in the text. */
export const ZSource = z.object({
  index: z.number().int(),
  item_uuid: z.string(),
  item_title: z.string(),
  chunk_id: z.number().int(),
  page: z.number().int().nullable(),
  heading: z.string().nullable(),
  snippet: z.string(),
});
export type TSource = z.infer<typeof ZSource>;

/** What an assistant answer's metadata carries (user messages carry what the client sent). */
export interface TAnswerMetadata {
  sources?: TSource[];
  model?: { uuid: string; name: string; provider: string };
  usage?: { input_tokens?: number | undefined; output_tokens?: number | undefined } | undefined;
  latency_ms?: number;
  first_token_ms?: number;
  /** Time spent searching the knowledge, within `first_token_ms`. */
  retrieval_ms?: number;
  /** Set when the answer failed: a sentence a person understands. */
  error?: string;
  /** What kind of failure: auth, rate_limited, timeout, model_not_found, unreachable, retrieval … */
  error_kind?: string;
  /** True when the relevance decision found the knowledge does not cover the question. */
  not_covered?: boolean;
  /** The relevance decision: whether the knowledge covers the question, and the best passage's coverage (0–1). */
  relevance?: { covered: boolean; score: number };
  /** The question matched the owner's Q&A pair: its answer was given word for word, no model called. */
  qa_match?: { item_uuid: string; score: number };
  /** The question was small talk ("hi", "thanks"): answered with a friendly reply, not from the knowledge. */
  small_talk?: boolean;
  /** The user message this answer replies to. */
  reply_to?: string;
  /** `length` when the answer was cut at the request's `max_tokens`. */
  finish_reason?: 'length';
  /** What the public API's request asked of this answer beyond the application's settings. */
  request?: unknown;
  /** Times the answer was started again because the server writing it stopped (decision 052). */
  resumes?: number;
}

/**
 * A message. `status` and `run` are Cairn's additions: an answer is `pending` → `streaming` →
 * `complete` | `stopped` | `failed`; `run` grows with each regeneration.
 */
export const ZMessage = z.object({
  id: z.number().int(),
  uuid: z.string(),
  sender_identifier: z.string(),
  message: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  status: ZMessageStatus,
  run: z.number().int(),
  feedback: ZFeedback.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TMessage = z.infer<typeof ZMessage>;

export const ZChatroomSource = z.enum(CHATROOM_SOURCES);

/** Who answers in a chatroom: the application's assistant, or a person (the owner took it over). */
export const ZHandledBy = z.enum(['assistant', 'human']);
export type THandledBy = z.infer<typeof ZHandledBy>;

export const ZChatroom = z.object({
  uuid: z.string(),
  name: z.string(),
  source: ZChatroomSource,
  handled_by: ZHandledBy,
  /** Set while a visitor waits for a person (they asked for one and nobody replied yet). */
  waiting_since: z.string().nullable(),
  /** The page a widget conversation started on; null for other sources. */
  started_on: z.string().nullable(),
  created_at: z.string(),
  last_message_at: z.string(),
});
export type TChatroom = z.infer<typeof ZChatroom>;

export const ZChatroomList = z.object({ chatrooms: z.array(ZChatroom) });
export type TChatroomList = z.infer<typeof ZChatroomList>;

/** A chatroom's messages with what the view needs of the chatroom itself: where it came from and who answers. */
export const ZChatroomMessages = ZChatroom.pick({
  uuid: true,
  name: true,
  source: true,
  handled_by: true,
  waiting_since: true,
  started_on: true,
}).extend({ messages: z.array(ZMessage) });
export type TChatroomMessages = z.infer<typeof ZChatroomMessages>;

export const ZMessageText = freeText({ error: 'Required' })
  .refine((s) => s.trim().length > 0, 'Required')
  .refine(
    (s) => s.length <= MESSAGE_MAX,
    `A message can have at most ${MESSAGE_MAX.toLocaleString('en')} characters.`,
  );

export const ZSendMessageRequest = z.object({
  chatroom_identifier: z.union([z.literal(NEW_CHAT_ID), z.uuid({ error: 'Not a valid chatroom' })]),
  message: ZMessageText,
  sender_identifier: z.string({ error: 'Required' }),
  metadata: z.record(z.string(), z.unknown()).default({ source: 'web' }),
  send_to_user: z.boolean().default(false),
});
export type TSendMessageRequest = z.input<typeof ZSendMessageRequest>;

/** The chatroom (new or existing), the stored message and the answer being prepared (none with `send_to_user`). */
export const ZSendMessageResponse = z.object({
  chatroom: ZChatroom,
  message: ZMessage,
  answer: ZMessage.nullable(),
});
export type TSendMessageResponse = z.infer<typeof ZSendMessageResponse>;

export const ZChatroomName = oneLine({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(255, 'At most 255 characters');
/** `PATCH …/chatrooms/{chatroomId}/`: rename, and/or take the chatroom over or hand it back. */
export const ZUpdateChatroomRequest = z
  .object({ name: ZChatroomName.optional(), handled_by: ZHandledBy.optional() })
  .refine((body) => body.name !== undefined || body.handled_by !== undefined, 'Give name or handled_by');
export const ZFeedbackRequest = z.object({ feedback: ZFeedback.nullable() });

export const ZChatroomParams = z.object({
  appId: z.uuid({ error: 'Not a valid id' }),
  chatroomId: z.uuid({ error: 'Not a valid id' }),
});
export const ZMessageParams = ZChatroomParams.extend({ messageId: z.uuid({ error: 'Not a valid id' }) });

/**
 * Payloads of the realtime `message` event. Every payload names its application and chatroom.
 * - `created`: a new message (a user message, or an answer as it starts: `pending`).
 * - `delta`: streamed text of an answer; `offset` is where `delta` starts in the answer's text
 *   for run `run`. A client applies it only when `offset` equals the length it holds, so
 *   duplicates are ignored and a gap is detected (then it refetches the messages).
 * - `updated`: the full message after a change (answer finished, failed, stopped, regenerated, feedback).
 * - `chatroom`: a chatroom was created or renamed; `chatroom_deleted`: it is gone.
 * Catching up after a reconnect is `GET …/messages/`: it holds every message, answers mid-stream
 * with the text stored so far; later deltas carry offsets, so nothing is lost or doubled.
 */
/**
 * `visitor_uuid`: a widget chatroom's visitor, on the events that say it (an answer's, whichever
 * process writes it): a visitor's stream recognises them without having seen the chatroom's event,
 * which another process may publish after them (decision 094).
 */
export type TMessageEvent =
  | {
      kind: 'created';
      application_uuid: string;
      chatroom_uuid: string;
      message: TMessage;
      visitor_uuid?: string | undefined;
    }
  | {
      kind: 'delta';
      application_uuid: string;
      chatroom_uuid: string;
      message_uuid: string;
      run: number;
      offset: number;
      delta: string;
      visitor_uuid?: string | undefined;
    }
  | {
      kind: 'updated';
      application_uuid: string;
      chatroom_uuid: string;
      message: TMessage;
      visitor_uuid?: string | undefined;
    }
  | {
      kind: 'chatroom';
      application_uuid: string;
      chatroom_uuid: string;
      chatroom: TChatroom;
      /** A widget chatroom's visitor (routes the event to that visitor's stream). */
      visitor_uuid?: string | undefined;
    }
  | { kind: 'chatroom_deleted'; application_uuid: string; chatroom_uuid: string };

/** Chatroom name from its first message: the first line, cut at a word near 60 characters. */
export function chatroomNameFrom(message: string): string {
  const line = message.trim().split('\n')[0]!.replace(/\s+/g, ' ').trim();
  if (line.length <= CHATROOM_NAME_MAX) return line || NEW_CHAT_NAME;
  const cut = line.slice(0, CHATROOM_NAME_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
