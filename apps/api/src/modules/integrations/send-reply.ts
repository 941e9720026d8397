import { applications, integrations } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { greetingOf } from '../chatrooms/answer/greeting.ts';
import { askApplication } from './ask-application.ts';
import type { IntegrationRow } from './find-integration.ts';
import { openSecret } from './integration-secrets.ts';
import type { ReplyJob } from './reply-job.ts';
import { describeSlackError, slackClient } from './slack-client.ts';
import { postToSlackOnce } from './slack-post-once.ts';
import { slackAnswerMessage } from './slack-reply.ts';
import { describeTelegramError, telegramApi } from './telegram-client.ts';
import { telegramAnswerTexts } from './telegram-reply.ts';
import { sendPartsOnce } from './telegram-send-once.ts';

/** The status an owner sees: the last failure (kept with its time) or connected again. */
export async function markIntegration(app: Ctx, id: number, error: string | null) {
  await app.events.transaction(async (tx, emit) => {
    const [before] = await tx
      .select({ status: integrations.status, ownerId: integrations.ownerId, kind: integrations.kind })
      .from(integrations)
      .where(eq(integrations.id, id))
      .for('update');
    await tx
      .update(integrations)
      .set(
        error === null
          ? { status: 'connected' }
          : { status: 'error', lastError: error.slice(0, 1000), lastErrorAt: sql`now()` },
      )
      .where(eq(integrations.id, id));
    // Only the change from working to broken notifies: a broken bot fails on every message.
    if (error !== null && before && before.status !== 'error') {
      const name = before.kind === 'slack' ? 'Slack' : 'Telegram';
      emit('integration.failed', {
        ownerId: before.ownerId,
        title: `${name} stopped working`,
        reason: error,
      });
    }
  });
}

async function deliver(
  app: Ctx,
  integration: IntegrationRow,
  job: ReplyJob,
  send: (token: string) => Promise<void>,
) {
  const token = openSecret(app.secrets, integration.uuid, 'bot_token', integration.botTokenCiphertext);
  try {
    await send(token);
  } catch (error) {
    const described = integration.kind === 'slack' ? describeSlackError(error) : describeTelegramError(error);
    await markIntegration(app, integration.id, described);
    throw new Error(`${job.target.kind} reply failed: ${described}`);
  }
  if (integration.status !== 'connected') await markIntegration(app, integration.id, null);
}

/**
 * A reply job: the application's answer (or the greeting) posted where the message came from — in
 * the Slack thread with its sources and feedback buttons, or to the Telegram chat. A failure is the
 * integration's last error and fails the job (the queue retries it; the answer is not asked twice).
 * `rerun`: the job ran before, and may have posted already (decision 073).
 */
export async function sendReply(app: Ctx, job: ReplyJob, rerun: boolean) {
  const [row] = await app.db
    .select({ integration: integrations, application: applications })
    .from(integrations)
    .innerJoin(applications, eq(applications.id, integrations.applicationId))
    .where(eq(integrations.id, job.integrationId));
  if (!row) return; // deleted meanwhile
  const { integration, application } = row;
  const target = job.target;
  const reply = { uuid: job.answerUuid, rerun };

  if (job.type === 'greeting') {
    if (target.kind !== 'telegram') return;
    const text = await greetingOf(app.db, application.id, application.name);
    await deliver(app, integration, job, async (token) => {
      const api = await telegramApi(app.config, token);
      await sendPartsOnce(app, integration.id, reply, [text], (part) => api.sendMessage(target.chatId, part));
    });
    return;
  }

  const answer = await askApplication(app, integration, application, job);
  if (!answer) return;
  if (target.kind === 'slack') {
    const message = slackAnswerMessage(answer);
    await deliver(app, integration, job, async (token) => {
      await postToSlackOnce(
        await slackClient(app.config, token, app.log),
        app.log,
        { channel: target.channel, thread_ts: target.threadTs, text: message.text, blocks: message.blocks },
        { type: 'cairn_reply', id: job.answerUuid, rerun, integration: integration.uuid },
      );
    });
  } else {
    await deliver(app, integration, job, async (token) => {
      const api = await telegramApi(app.config, token);
      await sendPartsOnce(app, integration.id, reply, telegramAnswerTexts(answer), async (text, index) => {
        // The first part answers the question; the rest follow it.
        await api.sendMessage(
          target.chatId,
          text,
          index === 0
            ? {
                reply_parameters: { message_id: target.messageId, allow_sending_without_reply: true },
                link_preview_options: { is_disabled: true },
              }
            : undefined,
        );
      });
    });
  }
}
