import { DEFAULT_LLM_MODELS } from '@cairn/contracts/models';
import type { Db } from '@cairn/db/client';
import { applications } from '@cairn/db/schema';
import { serializeApplication } from './serialize-application.ts';

export async function createApplication(db: Db, ownerId: number, input: { name: string }) {
  const [row] = await db
    .insert(applications)
    .values({ ownerId, name: input.name, llmModels: DEFAULT_LLM_MODELS })
    .returning();
  return serializeApplication(row!);
}
