/** The queue of replies to Slack and Telegram messages (pg-boss: survives a crash or restart). */
export const REPLY_QUEUE = 'integration-reply';

export type ReplyTarget =
  | { kind: 'slack'; channel: string; threadTs: string; user: string }
  | { kind: 'telegram'; chatId: number; messageId: number; userId: number | null };

/** One message to answer (or greet), and where the reply goes. */
export interface ReplyJob {
  integrationId: number;
  /** `question`: answered by the application; `greeting`: Telegram's /start. */
  type: 'question' | 'greeting';
  /** The conversation: Slack `{channel}:{thread_ts}`, Telegram the chat id. */
  threadKey: string;
  question: string;
  /** Made when the event arrived, so a retried job finds the answer it already started. */
  answerUuid: string;
  target: ReplyTarget;
}
