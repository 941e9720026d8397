import { applications, integrations, knowledgeItems } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/ctx.ts';

/**
 * Deletes the application with everything in it (knowledge, conversations, keys, widget,
 * integrations: they cascade from its row); the knowledge and integrations modules then remove the
 * stored originals no other item holds and take back the Telegram webhooks of its bots.
 */
export async function deleteApplication(app: Ctx, ownerId: number, uuid: string) {
  const owned = and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId));
  await app.events.transaction(async (tx, emit) => {
    const files = await tx
      .selectDistinct({ path: knowledgeItems.filePath })
      .from(knowledgeItems)
      .innerJoin(applications, eq(applications.id, knowledgeItems.applicationId))
      .where(owned);
    const bots = await tx
      .select({ uuid: integrations.uuid, botTokenCiphertext: integrations.botTokenCiphertext })
      .from(integrations)
      .innerJoin(applications, eq(applications.id, integrations.applicationId))
      .where(and(owned, eq(integrations.kind, 'telegram'), eq(integrations.mode, 'webhook')));
    const [row] = await tx.delete(applications).where(owned).returning({ id: applications.id });
    if (!row) throw notFound('Application not found.');
    emit('applications.deleted', { files: files.map((f) => f.path), telegramWebhooks: bots });
  });
}
