import type { TPushSubscriptionRequest } from '@cairn/contracts/notifications';
import { pushSubscriptions } from '@cairn/db/schema';
import { and, count, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

export async function pushConfig(app: Ctx, userId: number) {
  const [row] = await app.db
    .select({ n: count() })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  return { public_key: app.notifications.vapid().publicKey, subscriptions: Number(row?.n ?? 0) };
}

/** Saves a browser's subscription; the same endpoint again (another sign-in) moves it to this user. */
export async function subscribePush(app: Ctx, userId: number, sub: TPushSubscriptionRequest) {
  await app.db
    .insert(pushSubscriptions)
    .values({ userId, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId, p256dh: sub.keys.p256dh, auth: sub.keys.auth },
    });
  return pushConfig(app, userId);
}

export async function unsubscribePush(app: Ctx, userId: number, endpoint: string) {
  await app.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
  return pushConfig(app, userId);
}
