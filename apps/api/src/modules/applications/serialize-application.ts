import type { TApplication } from '@cairn/contracts/applications';
import type { applications } from '@cairn/db/schema';

export type ApplicationRow = typeof applications.$inferSelect;

export function serializeApplication(app: ApplicationRow): TApplication {
  return {
    uuid: app.uuid,
    name: app.name,
    llm_models: app.llmModels,
    instructions: app.instructions,
    temperature: app.temperature,
    strictness: app.strictness,
    no_answer_message: app.noAnswerMessage,
    conversation_retention_days: app.conversationRetentionDays,
    created_at: app.createdAt.toISOString(),
    updated_at: app.updatedAt.toISOString(),
  };
}
