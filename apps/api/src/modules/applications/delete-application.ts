import { applications, knowledgeItems } from '@cairn/db/schema';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.ts';
import { removeUnusedFiles } from '../knowledge/remove-unused-files.ts';

/**
 * Deletes the application with everything in it (knowledge, conversations, keys, widget: they
 * cascade from its row), then the stored originals no other item holds.
 */
export async function deleteApplication(app: FastifyInstance, ownerId: number, uuid: string) {
  const owned = and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId));
  const files = await app.db
    .selectDistinct({ path: knowledgeItems.filePath })
    .from(knowledgeItems)
    .innerJoin(applications, eq(applications.id, knowledgeItems.applicationId))
    .where(owned);
  const [row] = await app.db.delete(applications).where(owned).returning({ id: applications.id });
  if (!row) throw notFound('Application not found.');
  await removeUnusedFiles(
    app,
    files.map((f) => f.path),
  );
}
