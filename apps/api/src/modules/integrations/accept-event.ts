import { integrationEvents, integrations } from '@cairn/db/schema';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { HEARTBEAT } from '../../plugins/jobs.ts';
import { REPLY_QUEUE, type ReplyJob } from './reply-job.ts';

/**
 * Takes an inbound event once: records its id (a retry of an event already taken is dropped, and
 * `false` returned), marks the integration's last event and queues its reply. A reply that cannot be
 * queued forgets the event again, so the service's own retry gets another chance.
 */
export async function acceptEvent(
  app: Ctx,
  integrationId: number,
  eventId: string,
  job: ReplyJob | null,
): Promise<boolean> {
  const [taken] = await app.db
    .insert(integrationEvents)
    .values({ integrationId, eventId })
    .onConflictDoNothing()
    .returning({ id: integrationEvents.id });
  await app.db
    .update(integrations)
    .set({ lastEventAt: sql`now()` })
    .where(eq(integrations.id, integrationId));
  if (!taken) return false;
  if (!job) return true;
  try {
    await app.jobs.send(REPLY_QUEUE, job, { retryLimit: 2, retryDelay: 5, ...HEARTBEAT });
  } catch (error) {
    await app.db.delete(integrationEvents).where(eq(integrationEvents.id, taken.id));
    throw error;
  }
  return true;
}

/** Event ids older than a day: no service retries that late. */
export async function pruneEvents(app: Ctx) {
  await app.db
    .delete(integrationEvents)
    .where(and(lt(integrationEvents.createdAt, sql`now() - interval '1 day'`)));
}
