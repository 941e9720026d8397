import {
  DEFAULT_NOTIFICATION_PROFILE,
  type TNotificationProfile,
  ZNotificationProfile,
} from '@cairn/contracts/notifications';
import type { Db } from '@cairn/db/client';
import { notificationProfiles } from '@cairn/db/schema';
import { eq, sql } from 'drizzle-orm';
import { forgetTimeZone } from './owner-time-zone.ts';

/**
 * The owner's profile, or the defaults. A stored profile is parsed again so that an event added
 * after it was saved gets its default channels instead of being missing.
 */
export async function getProfile(db: Db, userId: number): Promise<TNotificationProfile> {
  const [row] = await db
    .select({ profile: notificationProfiles.profile })
    .from(notificationProfiles)
    .where(eq(notificationProfiles.userId, userId));
  if (!row) return DEFAULT_NOTIFICATION_PROFILE;
  const merged = {
    ...DEFAULT_NOTIFICATION_PROFILE,
    ...row.profile,
    events: { ...DEFAULT_NOTIFICATION_PROFILE.events, ...row.profile.events },
  };
  const parsed = ZNotificationProfile.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_NOTIFICATION_PROFILE;
}

export async function putProfile(
  db: Db,
  userId: number,
  profile: TNotificationProfile,
): Promise<TNotificationProfile> {
  await db
    .insert(notificationProfiles)
    .values({ userId, profile })
    .onConflictDoUpdate({
      target: notificationProfiles.userId,
      set: { profile, updatedAt: sql`now()` },
    });
  forgetTimeZone(db, userId);
  return profile;
}
