import { integrationEvents } from '@cairn/db/schema';
import { and, eq, like } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';

/** The record of one part Telegram took, kept beside the integration's inbound event ids (pruned after a day). */
const sentPrefix = (reply: string) => `sent:${reply}:`;

/**
 * Sends a reply's parts in order, each at most once across runs of its job: a part Telegram took is
 * recorded, and a re-run (a retry, or a job taken again after its process died) skips the parts
 * recorded. Telegram has no idempotency key and no metadata to look a message up by, so a process
 * killed between Telegram taking a part and its record still sends that one part twice. Decision 073.
 */
export async function sendPartsOnce(
  app: Ctx,
  integrationId: number,
  reply: { uuid: string; rerun: boolean },
  parts: string[],
  send: (text: string, index: number) => Promise<unknown>,
): Promise<void> {
  const recorded = reply.rerun
    ? await app.db
        .select({ eventId: integrationEvents.eventId })
        .from(integrationEvents)
        .where(
          and(
            eq(integrationEvents.integrationId, integrationId),
            like(integrationEvents.eventId, `${sentPrefix(reply.uuid)}%`),
          ),
        )
    : [];
  const sent = new Set(recorded.map((r) => r.eventId));
  for (const [index, text] of parts.entries()) {
    const eventId = `${sentPrefix(reply.uuid)}${index}`;
    if (sent.has(eventId)) continue;
    await send(text, index);
    await app.db.insert(integrationEvents).values({ integrationId, eventId }).onConflictDoNothing();
  }
}
