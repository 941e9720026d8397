import { PUBLIC_API_BASE_PATH, type TApiKey, type TCreatedApiKey } from '@cairn/contracts/api-keys';
import { data } from 'react-router';
import { z } from 'zod';
import type { ApiClient } from '../../lib/api.server';
import { ApiError, type FormErrors, formErrorsOf } from '../../lib/api-error';
import { CREATE_API_KEY_FIELDS, ZCreateApiKeyForm } from './create-api-key-form';

const KEYS_FAILED = 'Failed to load API keys';

const keysPath = (appId: string) => `/api/applications/${appId}/api-keys/`;

/**
 * Where OpenAI-compatible clients reach this Cairn: `PUBLIC_URL` + `/api/v1` (behind a proxy that
 * ends https, the address the page was asked for would say http).
 */
export function publicApiBaseUrl(publicUrl: string): string {
  return new URL(PUBLIC_API_BASE_PATH, new URL(publicUrl).origin).href;
}

/** The application's keys; a failure other than "no such application" is shown on the page. */
export async function loadApiKeys(
  api: ApiClient,
  appId: string,
): Promise<{ keys: TApiKey[]; error: null } | { keys: null; error: string }> {
  try {
    return { keys: await api.get<TApiKey[]>(keysPath(appId)), error: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    return { keys: null, error: KEYS_FAILED };
  }
}

/** Every answer names its intent, so the create dialog and each key's delete dialog read only their own. */
export type ApiKeysActionData =
  | { intent: 'create'; ok: true; created: TCreatedApiKey }
  | { intent: 'delete'; ok: true; keyId: string }
  | { intent: 'create' | 'delete'; ok: false; errors: FormErrors };

const ZIntent = z.enum(['create', 'delete']);
const ZKeyId = z.uuid();

function fields(form: FormData): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === 'string') raw[key] = value;
  return raw;
}

function failed(intent: 'create' | 'delete', errors: FormErrors) {
  return data<ApiKeysActionData>({ intent, ok: false, errors }, { status: 400 });
}

export async function apiKeysAction(api: ApiClient, appId: string, form: FormData) {
  const raw = fields(form);
  const intent = ZIntent.safeParse(raw.intent);
  if (!intent.success) throw data(null, { status: 400 });

  if (intent.data === 'create') {
    const parsed = ZCreateApiKeyForm.safeParse(raw);
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
      return failed('create', { fieldErrors, formError: null });
    }
    try {
      const created = await api.post<TCreatedApiKey>(keysPath(appId), parsed.data);
      return { intent: 'create', ok: true, created } as const;
    } catch (error) {
      return failed('create', formErrorsOf(error, CREATE_API_KEY_FIELDS));
    }
  }

  const keyId = ZKeyId.safeParse(raw.keyId);
  if (!keyId.success) throw data(null, { status: 400 });
  try {
    await api.delete(`${keysPath(appId)}${keyId.data}/`);
  } catch (error) {
    // Already gone (another tab deleted it): what the user asked for is true.
    if (!(error instanceof ApiError && error.status === 404))
      return failed('delete', formErrorsOf(error, []));
  }
  return { intent: 'delete', ok: true, keyId: keyId.data } as const;
}
