import { integrations, notifications } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { HEARTBEAT, type QueueOptions } from '../../plugins/jobs.ts';
import { openSecret } from '../integrations/integration-secrets.ts';
import { describeSlackError, slackClient } from '../integrations/slack-client.ts';
import { postToSlackOnce } from '../integrations/slack-post-once.ts';
import { bodyAsOf } from './handoff-deadline.ts';
import { getProfile } from './profile.ts';

export const SLACK_QUEUE = 'notification-slack';
export interface SlackJob {
  notificationId: number;
}

/** Queued at once: Slack messages have no delay and no quiet hours (they hold e-mail and push). */
export async function queueNotificationSlack(app: Ctx, notificationId: number, { tx }: QueueOptions = {}) {
  await app.jobs.send<SlackJob>(
    SLACK_QUEUE,
    { notificationId },
    { retryLimit: 3, retryDelay: 30, ...HEARTBEAT, tx },
  );
}

/** `&`, `<` and `>` are Slack's control characters: escaped as Slack documents. */
const slackText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Which post this is, so a re-run of its job finds it instead of posting it again (decision 073). */
export interface OwnerSlackPost {
  /** The notification's uuid (a test message's own). */
  id: string;
  /** The job ran before and may have posted already. */
  rerun: boolean;
  /** When the notification was recorded: nothing of it was posted earlier. */
  since?: Date;
}

/**
 * Posts a message to the channel of the owner's Slack target, read now (a target removed meanwhile
 * sends nothing: false), once across runs of its job. A refusal by Slack throws.
 */
export async function postToOwnerSlack(
  app: Ctx,
  ownerId: number,
  message: { title: string; body: string; url: string | null },
  post: OwnerSlackPost,
): Promise<boolean> {
  const profile = await getProfile(app.db, ownerId);
  const target = profile.slack;
  if (!target) return false;
  const [integration] = await app.db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.uuid, target.integration_uuid),
        eq(integrations.ownerId, ownerId),
        eq(integrations.kind, 'slack'),
      ),
    );
  if (!integration) return false;
  const token = openSecret(app.secrets, integration.uuid, 'bot_token', integration.botTokenCiphertext);
  const client = await slackClient(app.config, token, app.log);
  const lines = [
    `*${slackText(message.title)}*`,
    message.body ? slackText(message.body) : '',
    message.url ? `<${message.url}|Open in Cairn>` : '',
  ];
  try {
    await postToSlackOnce(
      client,
      app.log,
      { channel: target.channel.replace(/^#/, ''), text: lines.filter(Boolean).join('\n') },
      {
        type: 'cairn_notification',
        id: post.id,
        rerun: post.rerun,
        integration: integration.uuid,
        since: post.since,
      },
    );
  } catch (error) {
    throw new SlackPostError(describeSlackError(error));
  }
  return true;
}

export class SlackPostError extends Error {}

/**
 * Posts one notification, if its event is still set to Slack; `rerun`: its job ran before. A refusal by Slack fails the job,
 * which the queue retries; it is not recorded as the integration's error, which would notify
 * integration_failed and could loop back here.
 */
export async function deliverNotificationSlack(
  app: Ctx,
  notificationId: number,
  rerun: boolean,
): Promise<boolean> {
  const [row] = await app.db.select().from(notifications).where(eq(notifications.id, notificationId));
  if (!row) return false;
  const profile = await getProfile(app.db, row.ownerId);
  if (!profile.events[row.event as keyof typeof profile.events]?.includes('slack')) return false;
  return postToOwnerSlack(
    app,
    row.ownerId,
    {
      title: row.title,
      body: bodyAsOf(row, app.notifications.clock(), profile.time_zone),
      url: row.link ? new URL(row.link, app.config.publicUrl).href : null,
    },
    { id: row.uuid, rerun, since: row.createdAt },
  );
}
