import type { TIntegration } from '@cairn/contracts/integrations';
import { data } from 'react-router';
import { z } from 'zod';
import type { ApiClient } from '../../lib/api.server';
import { ApiError, type FormErrors, formErrorsOf } from '../../lib/api-error';

/** The form fields of the connect dialogs: the API's own field names. */
export const CHAT_APP_FIELDS = ['application_uuid', 'bot_token', 'signing_secret'] as const;

/** The intents this module answers; the route hands every other intent to the webhooks. */
export const CHAT_APP_INTENTS = ['connect-slack', 'connect-telegram', 'disconnect-chat-app'] as const;
const ZIntent = z.enum(CHAT_APP_INTENTS);
type Intent = z.infer<typeof ZIntent>;
export const isChatAppIntent = (value: unknown): value is Intent => ZIntent.safeParse(value).success;

export type ChatAppsActionData =
  | { intent: 'connect-slack' | 'connect-telegram'; ok: true; integration: TIntegration }
  | { intent: 'disconnect-chat-app'; integrationId: string; ok: true }
  | { intent: Intent; integrationId?: string; ok: false; errors: FormErrors };

/** The owner's Slack and Telegram integrations, or null with the reason when they cannot be read. */
export async function loadChatApps(
  api: ApiClient,
): Promise<{ integrations: TIntegration[] | null; integrationsError: string | null }> {
  try {
    return { integrations: await api.get<TIntegration[]>('/api/integrations/'), integrationsError: null };
  } catch {
    return { integrations: null, integrationsError: 'Failed to load chat apps' };
  }
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
};

export async function chatAppsAction(api: ApiClient, form: FormData) {
  const intent = ZIntent.parse(form.get('intent'));
  if (intent === 'disconnect-chat-app') {
    const id = z.uuid().safeParse(form.get('integrationId'));
    if (!id.success) throw data(null, { status: 400 });
    try {
      await api.delete(`/api/integrations/${id.data}/`);
    } catch (error) {
      // Already gone (another tab disconnected it): what the user asked for is true.
      if (!(error instanceof ApiError && error.status === 404))
        return data<ChatAppsActionData>(
          { intent, integrationId: id.data, ok: false, errors: formErrorsOf(error, []) },
          { status: 400 },
        );
    }
    return { intent, integrationId: id.data, ok: true } as const;
  }
  const body =
    intent === 'connect-slack'
      ? {
          kind: 'slack',
          application_uuid: text(form, 'application_uuid'),
          bot_token: text(form, 'bot_token'),
          signing_secret: text(form, 'signing_secret'),
        }
      : {
          kind: 'telegram',
          application_uuid: text(form, 'application_uuid'),
          bot_token: text(form, 'bot_token'),
        };
  try {
    const integration = await api.post<TIntegration>('/api/integrations/', body);
    return { intent, ok: true, integration } as const;
  } catch (error) {
    return data<ChatAppsActionData>(
      { intent, ok: false, errors: formErrorsOf(error, CHAT_APP_FIELDS) },
      { status: 400 },
    );
  }
}
