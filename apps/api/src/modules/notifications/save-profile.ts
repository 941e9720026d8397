import type { TNotificationProfile } from '@cairn/contracts/notifications';
import { integrations } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { fieldError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';
import { putProfile } from './profile.ts';

/** `PUT /api/notification-profile/`: the Slack target must be one of the owner's own Slack integrations. */
export async function saveProfile(app: Ctx, userId: number, profile: TNotificationProfile) {
  if (profile.slack) {
    const [owned] = await app.db
      .select({ id: integrations.id })
      .from(integrations)
      .where(
        and(
          eq(integrations.uuid, profile.slack.integration_uuid),
          eq(integrations.ownerId, userId),
          eq(integrations.kind, 'slack'),
        ),
      );
    if (!owned)
      throw fieldError('slack.integration_uuid', 'Must be the uuid of one of your Slack integrations');
  }
  return putProfile(app.db, userId, profile);
}
