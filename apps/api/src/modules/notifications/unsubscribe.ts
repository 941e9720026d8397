import type { TUnsubscribeTopic } from '@cairn/contracts/notifications';
import { users } from '@cairn/db/schema';
import { eq } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { getProfile, putProfile } from './profile.ts';

/** Turns one event's e-mail (or the digest) off for the token's user; the rest of the profile stays as it is. */
export async function unsubscribe(app: Ctx, token: string): Promise<{ event: TUnsubscribeTopic }> {
  const claims = app.notifications.unsubscribeTokens.verify(token);
  if (!claims) throw new AppError('invalid_token', 'This unsubscribe link is not valid.');
  const [user] = await app.db.select({ id: users.id }).from(users).where(eq(users.id, claims.userId));
  if (!user) throw new AppError('invalid_token', 'This unsubscribe link is not valid.');
  const profile = await getProfile(app.db, claims.userId);
  const { event } = claims;
  if (event === 'digest') {
    await putProfile(app.db, claims.userId, { ...profile, digest: 'off' });
  } else {
    const channels = profile.events[event].filter((c) => c !== 'email');
    await putProfile(app.db, claims.userId, { ...profile, events: { ...profile.events, [event]: channels } });
  }
  return { event };
}

/** The one-click link of an e-mail about `topic` to `userId`, under PUBLIC_URL. */
export function unsubscribeUrl(app: Ctx, userId: number, topic: TUnsubscribeTopic): string {
  const url = new URL('/api/notifications/unsubscribe/', app.config.publicUrl);
  url.searchParams.set('token', app.notifications.unsubscribeTokens.mint(userId, topic));
  return url.href;
}
