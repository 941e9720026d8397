import { notifications, pushSubscriptions } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import type { RequestDetails } from 'web-push';
import type { Ctx } from '../../lib/ctx.ts';
import { guardedRequest, resolvePublicAddress } from '../../lib/ssrf.ts';
import { HEARTBEAT, type QueueOptions } from '../../plugins/jobs.ts';
import { bodyAsOf } from './handoff-deadline.ts';
import { getProfile } from './profile.ts';
import { quietHoursEnd } from './quiet-hours.ts';

export const PUSH_QUEUE = 'notification-push';
export interface PushJob {
  notificationId: number;
}

export async function queueNotificationPush(
  app: Ctx,
  notificationId: number,
  { at, tx }: QueueOptions & { at?: Date } = {},
) {
  const seconds = at
    ? Math.max(0, Math.ceil((at.getTime() - app.notifications.clock().getTime()) / 1000))
    : 0;
  await app.jobs.send<PushJob>(
    PUSH_QUEUE,
    { notificationId },
    { startAfter: seconds, retryLimit: 3, retryDelay: 60, ...HEARTBEAT, tx },
  );
}

/** What the service worker shows (push-sw.js reads these fields). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/**
 * Sends a request web-push prepared (VAPID-signed, aes128gcm-encrypted) through the SSRF guard:
 * the endpoint is the browser's word, so its host is resolved once, checked like any user URL, and
 * that address is the one connected to.
 */
async function post(app: Ctx, details: RequestDetails): Promise<number> {
  const req = await guardedRequest(
    new URL(details.endpoint),
    (url) => resolvePublicAddress(url.hostname, { allowLoopback: app.config.allowPrivateUrls }),
    { method: details.method, headers: details.headers, signal: AbortSignal.timeout(15_000) },
  );
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(details.body ?? undefined);
  });
}

/**
 * Pushes one notification to every browser the owner subscribed, unless the event's push was
 * turned off meanwhile; during quiet hours it is held until they end (an urgent handoff is not).
 * A subscription the push service says is gone (404, 410) is removed.
 */
export async function deliverNotificationPush(
  app: Ctx,
  notificationId: number,
): Promise<'sent' | 'held' | 'skipped'> {
  const [row] = await app.db.select().from(notifications).where(eq(notifications.id, notificationId));
  if (!row) return 'skipped';
  const profile = await getProfile(app.db, row.ownerId);
  if (!profile.events[row.event as keyof typeof profile.events]?.includes('push')) return 'skipped';
  if (profile.quiet_hours && !row.urgent) {
    const end = quietHoursEnd(app.notifications.clock(), profile.quiet_hours);
    if (end) {
      await queueNotificationPush(app, row.id, { at: end });
      return 'held';
    }
  }
  await pushTo(app, row.ownerId, {
    title: row.title,
    body: bodyAsOf(row, app.notifications.clock(), profile.time_zone),
    url: new URL(row.link ?? '/', app.config.publicUrl).href,
    tag: row.uuid,
  });
  return 'sent';
}

/**
 * Who runs this server, for push services to contact (VAPID `sub`): an https PUBLIC_URL, or else
 * the sender address (VAPID accepts only https: and mailto:).
 */
function vapidSubject(config: { publicUrl: string; mailFrom: string }): string {
  if (config.publicUrl.startsWith('https:')) return config.publicUrl;
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom.trim();
  return `mailto:${address}`;
}

/** Pushes to every browser of the user; returns how many push services accepted it. */
export async function pushTo(app: Ctx, userId: number, payload: PushPayload): Promise<number> {
  const subscriptions = await app.db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  const vapid = app.notifications.vapid();
  // Loaded on the first push, not at every start (as the Slack and Telegram clients are).
  const { default: webpush } = await import('web-push');
  let accepted = 0;
  for (const sub of subscriptions) {
    const details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      JSON.stringify(payload),
      {
        TTL: 24 * 3600,
        // A push sent again (a job retried after a crash) replaces one the browser has not fetched
        // yet; one it has shown is replaced on screen by its `tag` (push-sw.js). Topic: ≤ 32 URL-safe characters.
        topic: payload.tag.replaceAll('-', '').slice(0, 32),
        vapidDetails: {
          subject: vapidSubject(app.config),
          publicKey: vapid.publicKey,
          privateKey: vapid.privateKey,
        },
      },
    );
    try {
      const status = await post(app, details);
      if (status >= 200 && status < 300) accepted++;
      else if (status === 404 || status === 410) {
        await app.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
      } else if (status < 200 || status >= 300) {
        app.log.warn({ status, subscription: sub.id }, 'push service refused a notification');
      }
    } catch (err) {
      app.log.warn({ err, subscription: sub.id }, 'push could not be sent');
    }
  }
  return accepted;
}
