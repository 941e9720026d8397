import type { TApplication } from '@cairn/contracts/applications';
import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import type { TAvailableModel } from '@cairn/contracts/model-providers';
import { data } from 'react-router';
import type { ApiClient } from '../../lib/api.server';
import { type FormErrors, formErrorsOf } from '../../lib/api-error';

/** The application itself comes with the layout's navigation data (GET /api/navigation/). */
export interface ApplicationSettingsData {
  models: TAvailableModel[];
  items: TKnowledgeItem[];
}

export async function loadApplicationSettings(
  api: ApiClient,
  appId: string,
): Promise<ApplicationSettingsData> {
  const [models, items] = await Promise.all([
    api.get<TAvailableModel[]>('/api/models/'),
    api.get<TKnowledgeItem[]>(`/api/applications/${appId}/knowledge/`),
  ]);
  return { models, items };
}

export type SettingsActionData =
  | { ok: true; reindexing: boolean; savedAt: number }
  | { ok: false; errors: FormErrors };

const FIELDS = [
  'text_model',
  'embedding_model',
  'instructions',
  'temperature',
  'strictness',
  'no_answer_message',
  'retention_days',
] as const;

/**
 * Saves the settings. The chosen text and embedding models go first in `llm_models` (the first of
 * each kind is the selected one); the application's other models keep their order behind them.
 */
export async function saveApplicationSettings(api: ApiClient, appId: string, form: FormData) {
  const raw: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === 'string') raw[key] = value;
  // Imported the way the form imports it (lazily), so the bundler keeps it one chunk for both.
  const { ZApplicationSettingsForm, retentionDaysOf } = await import('./application-settings-schema');
  const parsed = ZApplicationSettingsForm.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return data<SettingsActionData>({ ok: false, errors: { fieldErrors, formError: null } }, { status: 400 });
  }
  const value = parsed.data;
  try {
    const [current, available] = await Promise.all([
      api.get<TApplication>(`/api/applications/${appId}/`),
      api.get<TAvailableModel[]>('/api/models/'),
    ]);
    const chosen = [value.text_model, value.embedding_model];
    const rest = current.llm_models
      .map((m) => m.uuid)
      .filter((uuid) => !chosen.includes(uuid) && available.some((m) => m.uuid === uuid));
    const updated = await api.patch<TApplication>(`/api/applications/${appId}/`, {
      llm_models: [...chosen, ...rest],
      instructions: value.instructions,
      temperature: value.temperature,
      strictness: value.strictness,
      no_answer_message: value.no_answer_message,
      conversation_retention_days: value.retention === 'days' ? retentionDaysOf(value.retention_days) : null,
    });
    const embedding = (app: TApplication) => app.llm_models.find((m) => m.model_type === 'embedding')?.uuid;
    return { ok: true, reindexing: embedding(current) !== embedding(updated), savedAt: Date.now() } as const;
  } catch (error) {
    const errors = formErrorsOf(error, [...FIELDS, 'llm_models', 'conversation_retention_days']);
    const retentionError = errors.fieldErrors.conversation_retention_days;
    if (retentionError) errors.fieldErrors.retention_days = retentionError;
    // The API names the list; the form shows it on the model choice it is about (a refused
    // embedding model, with the provider's answer, goes under the embedding model).
    const modelsError = errors.fieldErrors.llm_models;
    if (modelsError)
      errors.fieldErrors[/embedding/i.test(modelsError) ? 'embedding_model' : 'text_model'] = modelsError;
    return data<SettingsActionData>({ ok: false, errors }, { status: 400 });
  }
}
