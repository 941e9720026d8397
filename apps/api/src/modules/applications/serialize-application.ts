import type { TApplication } from '@cairn/contracts/applications';
import type { applications } from '@cairn/db/schema';

export function serializeApplication(app: typeof applications.$inferSelect): TApplication {
  return {
    uuid: app.uuid,
    name: app.name,
    llm_models: app.llmModels,
    instructions: app.instructions,
    temperature: app.temperature,
    strictness: app.strictness,
    created_at: app.createdAt.toISOString(),
    updated_at: app.updatedAt.toISOString(),
  };
}
