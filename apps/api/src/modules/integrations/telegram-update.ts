import { randomUUID } from 'node:crypto';
import { MESSAGE_MAX } from '@cairn/contracts/chat';
import type { TTelegramUpdate } from '@cairn/contracts/integrations';
import { asFreeText } from '@cairn/contracts/text';
import type { Ctx } from '../../lib/ctx.ts';
import { acceptEvent } from './accept-event.ts';
import type { IntegrationRow } from './find-integration.ts';
import type { ReplyJob } from './reply-job.ts';

/** `/start` (and `/help`, or `/start@bot` in groups) get the greeting; any other text is a question. */
const GREETING_COMMAND = /^\/(start|help)(@\w+)?(\s|$)/;

/** The reply an update asks for; null for anything but a person's text message. */
export function telegramReplyJob(integration: IntegrationRow, update: TTelegramUpdate): ReplyJob | null {
  const message = update.message;
  if (!message?.text || message.from?.is_bot) return null;
  const text = asFreeText(message.text).trim().slice(0, MESSAGE_MAX);
  if (!text) return null;
  return {
    integrationId: integration.id,
    type: GREETING_COMMAND.test(text) ? 'greeting' : 'question',
    threadKey: String(message.chat.id),
    question: text,
    answerUuid: randomUUID(),
    target: {
      kind: 'telegram',
      chatId: message.chat.id,
      messageId: message.message_id,
      userId: message.from?.id ?? null,
    },
  };
}

/** An update, whether pushed (webhook) or fetched (polling): taken once, answered in the background. */
export const takeTelegramUpdate = (app: Ctx, integration: IntegrationRow, update: TTelegramUpdate) =>
  acceptEvent(app, integration.id, `update:${update.update_id}`, telegramReplyJob(integration, update));
