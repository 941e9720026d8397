import type { TLlmModel, TUpdateApplicationRequest } from '@cairn/contracts/applications';
import type { Db } from '@cairn/db/client';
import { applications } from '@cairn/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { notFound } from '../../lib/app-error.ts';
import { resolveLlmModels, selectedModel } from '../model-providers/resolve-llm-models.ts';
import { serializeApplication } from './serialize-application.ts';

export interface UpdatedApplication<T> {
  application: ReturnType<typeof serializeApplication>;
  /** The selected embedding model changed: the knowledge must be indexed again. */
  embeddingChanged: boolean;
  /** What `onEmbeddingChange` returned (nothing when the model did not change). */
  reindexed: T[];
}

/** Renames and changes the settings and models of the caller's application. */
export async function updateApplicationSettings<T = never>(
  db: Db,
  ownerId: number,
  uuid: string,
  input: TUpdateApplicationRequest,
  hooks: {
    /**
     * Checks a newly selected embedding model before anything is saved (a test embedding); it
     * throws to refuse the change. Not called when the selected model stays the same.
     */
    checkEmbedding?: (model: TLlmModel) => Promise<void>;
    /** Runs in the same transaction when the selected embedding model changes (re-indexing). */
    onEmbeddingChange?: (tx: Db, applicationId: number) => Promise<T[]>;
  } = {},
): Promise<UpdatedApplication<T>> {
  const { checkEmbedding, onEmbeddingChange } = hooks;
  const llmModels: TLlmModel[] | undefined =
    input.llm_models !== undefined ? await resolveLlmModels(db, ownerId, input.llm_models) : undefined;
  const chosen = llmModels && selectedModel(llmModels, 'embedding');
  if (chosen && checkEmbedding) {
    // Outside the transaction: the provider may take seconds to answer.
    const [current] = await db
      .select({ llmModels: applications.llmModels })
      .from(applications)
      .where(and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId)));
    if (!current) throw notFound('Application not found.');
    if (selectedModel(current.llmModels, 'embedding')?.uuid !== chosen.uuid) await checkEmbedding(chosen);
  }
  return db.transaction(async (tx) => {
    // Locked so two concurrent changes of the embedding model cannot both miss the change.
    const [before] = await tx
      .select({ id: applications.id, llmModels: applications.llmModels })
      .from(applications)
      .where(and(eq(applications.uuid, uuid), eq(applications.ownerId, ownerId)))
      .for('update');
    if (!before) throw notFound('Application not found.');
    const [row] = await tx
      .update(applications)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.instructions !== undefined && { instructions: input.instructions }),
        ...(input.temperature !== undefined && { temperature: input.temperature }),
        ...(input.strictness !== undefined && { strictness: input.strictness }),
        ...(input.no_answer_message !== undefined && { noAnswerMessage: input.no_answer_message }),
        ...(input.conversation_retention_days !== undefined && {
          conversationRetentionDays: input.conversation_retention_days,
        }),
        ...(llmModels !== undefined && { llmModels }),
        updatedAt: sql`now()`,
      })
      .where(eq(applications.id, before.id))
      .returning();
    const was = selectedModel(before.llmModels, 'embedding')?.uuid;
    const now = selectedModel(row!.llmModels, 'embedding')?.uuid;
    const embeddingChanged = was !== now;
    const reindexed = embeddingChanged && onEmbeddingChange ? await onEmbeddingChange(tx, row!.id) : [];
    return { application: serializeApplication(row!), embeddingChanged, reindexed };
  });
}

export async function updateApplication(
  db: Db,
  ownerId: number,
  uuid: string,
  input: TUpdateApplicationRequest,
) {
  return (await updateApplicationSettings(db, ownerId, uuid, input)).application;
}
