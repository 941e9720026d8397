/**
 * Who writes messages and what state an answer is in: read by the API, the web app and the widget.
 * No zod here: the browser imports this without shipping the schemas (chat.ts builds them on it).
 */

/** Prefix of a registered user's sender identifier: `reg_<id>` (spec §3). */
export const SENDER_PREFIX = 'reg';
/** The sender identifier of every answer written by the application's assistant. */
export const ASSISTANT_SENDER = 'assistant';
/** Prefix of a widget visitor's sender identifier: `visitor_<uuid>`. */
export const VISITOR_SENDER_PREFIX = 'visitor';

export const MESSAGE_MAX = 8000;

export const senderIdentifierOf = (userId: number) => `${SENDER_PREFIX}_${userId}`;
export const visitorSenderOf = (visitorUuid: string) => `${VISITOR_SENDER_PREFIX}_${visitorUuid}`;

/**
 * A visitor, for the conversation log and analytics, is whoever wrote a message other than the
 * assistant and the owner: its sender identifier as stored (`visitor_<uuid>` in the widget,
 * `slack_<user>`, `telegram_<user>`, `api_<key uuid>` and `mcp_<key uuid>` for callers of a key).
 */
export const isVisitorSender = (senderIdentifier: string) =>
  senderIdentifier !== ASSISTANT_SENDER && !senderIdentifier.startsWith(`${SENDER_PREFIX}_`);

/** An answer is `pending` → `streaming` → `complete` | `stopped` | `failed`; `run` grows with each regeneration. */
export const MESSAGE_STATUSES = ['pending', 'streaming', 'complete', 'stopped', 'failed'] as const;
export type TMessageStatus = (typeof MESSAGE_STATUSES)[number];

/** The run is over: its text will not change any more (a regeneration starts a new run). */
export const isFinalStatus = (status: TMessageStatus) =>
  status === 'complete' || status === 'stopped' || status === 'failed';

/** The answer is still being written. */
export const isInProgress = (message: { status: TMessageStatus }) => !isFinalStatus(message.status);
