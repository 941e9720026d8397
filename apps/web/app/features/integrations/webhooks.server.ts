import type {
  TCreatedWebhook,
  TRotatedWebhookSecret,
  TWebhook,
  TWebhookDelivery,
  TWebhookDeliveryList,
} from '@cairn/contracts/webhooks';
import { data } from 'react-router';
import { z } from 'zod';
import type { ApiClient } from '../../lib/api.server';
import { ApiError, type FormErrors, formErrorsOf } from '../../lib/api-error';
import { fieldErrorsOf, WEBHOOK_FIELDS, ZWebhookForm } from './webhook-form';

const WEBHOOKS_FAILED = 'Failed to load webhooks';

/** The delivery log shown in its dialog (`?log=<webhook uuid>`). */
export interface DeliveryLog {
  webhookId: string;
  deliveries: TWebhookDelivery[];
  error: string | null;
}

/** The owner's webhooks and, when asked for, one webhook's delivery log. */
export async function loadWebhooks(
  api: ApiClient,
  logFor: string | null,
): Promise<{ webhooks: TWebhook[] | null; error: string | null; log: DeliveryLog | null }> {
  let webhooks: TWebhook[] | null = null;
  let error: string | null = null;
  try {
    webhooks = await api.get<TWebhook[]>('/api/webhooks/');
  } catch {
    error = WEBHOOKS_FAILED;
  }
  let log: DeliveryLog | null = null;
  if (logFor && webhooks?.some((w) => w.uuid === logFor)) {
    try {
      const list = await api.get<TWebhookDeliveryList>(`/api/webhooks/${logFor}/deliveries/`, {
        query: { limit: 50 },
      });
      log = { webhookId: logFor, deliveries: list.deliveries, error: null };
    } catch {
      log = { webhookId: logFor, deliveries: [], error: 'Failed to load the delivery log' };
    }
  }
  return { webhooks, error, log };
}

/** Every answer names its intent and webhook, so each dialog and button reads only its own. */
export type WebhooksActionData =
  | { intent: 'create'; ok: true; created: TCreatedWebhook }
  | { intent: 'rotate'; webhookId: string; ok: true; rotated: TRotatedWebhookSecret }
  | { intent: 'update'; webhookId: string; ok: true; webhook: TWebhook }
  | { intent: 'test' | 'retry'; webhookId: string; ok: true; delivery: TWebhookDelivery }
  | { intent: 'delete'; webhookId: string; ok: true }
  | { intent: Intent; webhookId?: string; ok: false; errors: FormErrors };

const ZIntent = z.enum(['create', 'update', 'enable', 'disable', 'delete', 'test', 'rotate', 'retry']);
type Intent = z.infer<typeof ZIntent>;
const ZId = z.uuid();

function failed(intent: Intent, webhookId: string | undefined, errors: FormErrors) {
  return data<WebhooksActionData>({ intent, webhookId, ok: false, errors }, { status: 400 });
}

export async function webhooksAction(api: ApiClient, form: FormData) {
  const intent = ZIntent.safeParse(form.get('intent'));
  if (!intent.success) throw data(null, { status: 400 });
  const raw = {
    url: form.get('url') ?? undefined,
    events: form.getAll('events'),
    application_uuid: form.get('application_uuid') ?? '',
    description: form.get('description') ?? '',
  };

  if (intent.data === 'create') {
    const parsed = ZWebhookForm.safeParse(raw);
    if (!parsed.success)
      return failed('create', undefined, {
        fieldErrors: fieldErrorsOf(parsed.error.issues),
        formError: null,
      });
    try {
      const created = await api.post<TCreatedWebhook>('/api/webhooks/', parsed.data);
      return { intent: 'create', ok: true, created } as const;
    } catch (error) {
      return failed('create', undefined, formErrorsOf(error, WEBHOOK_FIELDS));
    }
  }

  const id = ZId.safeParse(form.get('webhookId'));
  if (!id.success) throw data(null, { status: 400 });
  const webhookId = id.data;
  const base = `/api/webhooks/${webhookId}/`;
  const deliveryId = ZId.safeParse(form.get('deliveryId'));
  if (intent.data === 'retry' && !deliveryId.success) throw data(null, { status: 400 });
  try {
    switch (intent.data) {
      case 'update': {
        const parsed = ZWebhookForm.safeParse(raw);
        if (!parsed.success)
          return failed('update', webhookId, {
            fieldErrors: fieldErrorsOf(parsed.error.issues),
            formError: null,
          });
        const webhook = await api.patch<TWebhook>(base, parsed.data);
        return { intent: 'update', webhookId, ok: true, webhook } as const;
      }
      case 'enable':
      case 'disable': {
        const webhook = await api.patch<TWebhook>(base, { enabled: intent.data === 'enable' });
        return { intent: 'update', webhookId, ok: true, webhook } as const;
      }
      case 'delete':
        await api.delete(base);
        return { intent: 'delete', webhookId, ok: true } as const;
      case 'test': {
        const delivery = await api.post<TWebhookDelivery>(`${base}test/`);
        return { intent: 'test', webhookId, ok: true, delivery } as const;
      }
      case 'rotate': {
        const rotated = await api.post<TRotatedWebhookSecret>(`${base}rotate-secret/`);
        return { intent: 'rotate', webhookId, ok: true, rotated } as const;
      }
      case 'retry': {
        const delivery = await api.post<TWebhookDelivery>(`${base}deliveries/${deliveryId.data!}/retry/`);
        return { intent: 'retry', webhookId, ok: true, delivery } as const;
      }
    }
  } catch (error) {
    // Already gone (another tab deleted it): what the user asked for is true.
    if (intent.data === 'delete' && error instanceof ApiError && error.status === 404)
      return { intent: 'delete', webhookId, ok: true } as const;
    return failed(
      intent.data,
      webhookId,
      formErrorsOf(error, intent.data === 'update' ? WEBHOOK_FIELDS : []),
    );
  }
}
