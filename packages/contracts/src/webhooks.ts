import { z } from 'zod';
import { ZChatroom, ZChatroomSource, ZFeedback, ZMessage } from './chat.ts';
import { ZKnowledgeItem } from './knowledge.ts';
import { oneLine } from './text.ts';

/**
 * Outbound webhooks (issue 11, decision 046): an owner's HTTP endpoint receives signed events,
 * per the Standard Webhooks specification (https://www.standardwebhooks.com): headers
 * `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, two space-separated signatures while a
 * rotated secret is still valid). The secret is `whsec_` + base64 of 32 random bytes.
 */
export const WEBHOOK_EVENT_TYPES = [
  'webhook.ping',
  'conversation.created',
  'message.created',
  'feedback.created',
  'handoff.requested',
  'knowledge.item.ready',
  'knowledge.item.failed',
] as const;
export const ZWebhookEventType = z.enum(WEBHOOK_EVENT_TYPES, {
  error: `Must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
});
export type TWebhookEventType = z.infer<typeof ZWebhookEventType>;

/** What each event means, as the settings screen and the docs say it. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<TWebhookEventType, string> = {
  'webhook.ping': 'A test sent from the settings screen (always delivered)',
  'conversation.created': 'A conversation started (web, API, widget …)',
  'message.created': 'A message was posted, or an answer finished',
  'feedback.created': 'Someone rated an answer',
  'handoff.requested': 'A widget visitor asked for a person',
  'knowledge.item.ready': 'A knowledge item was indexed',
  'knowledge.item.failed': 'A knowledge item could not be indexed',
};

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 500;
export * from './webhook-limits.ts';
/** How long a rotated-out secret keeps signing beside the new one. */
export const WEBHOOK_ROTATION_HOURS = 24;
/** Bytes of a receiver's answer kept with each attempt. */
export const WEBHOOK_EXCERPT_BYTES = 1024;

/** `http(s)://…` without a user name or password; private hosts are checked by the server. */
export const ZWebhookUrl = oneLine({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(WEBHOOK_URL_MAX, `At most ${WEBHOOK_URL_MAX} characters`)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Must be a web address such as https://example.com/hooks' });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      ctx.addIssue({ code: 'custom', message: 'Must start with https:// or http://' });
    else if (url.username || url.password)
      ctx.addIssue({ code: 'custom', message: 'Must not contain a user name or password' });
  });

const ZEvents = z
  .array(ZWebhookEventType, { error: 'Must be a list of event types' })
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((events) => [...new Set(events)]);

const ZDescription = oneLine({ error: 'Must be text' })
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX, `At most ${WEBHOOK_DESCRIPTION_MAX} characters`);

export const ZCreateWebhookRequest = z.object({
  url: ZWebhookUrl,
  events: ZEvents,
  /** Only this application's events; null or absent: every application of the owner. */
  application_uuid: z.uuid({ error: 'Not a valid id' }).nullable().optional(),
  description: ZDescription.default(''),
});
export type TCreateWebhookRequest = z.input<typeof ZCreateWebhookRequest>;

export const ZUpdateWebhookRequest = z
  .object({
    url: ZWebhookUrl.optional(),
    events: ZEvents.optional(),
    application_uuid: z.uuid({ error: 'Not a valid id' }).nullable().optional(),
    description: ZDescription.optional(),
    /** true re-enables a disabled webhook (its failure count starts again); false pauses it. */
    enabled: z.boolean({ error: 'Must be true or false' }).optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'Give at least one field to change');
export type TUpdateWebhookRequest = z.input<typeof ZUpdateWebhookRequest>;

export const ZWebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed']);
export type TWebhookDeliveryStatus = z.infer<typeof ZWebhookDeliveryStatus>;

export const ZWebhook = z.object({
  uuid: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(ZWebhookEventType),
  application_uuid: z.uuid().nullable(),
  enabled: z.boolean(),
  /** Why Cairn disabled it (410 Gone, failing for 5 days), or that the owner paused it. */
  disabled_reason: z.string().nullable(),
  /** Until then the previous secret signs too (after a rotation); null otherwise. */
  previous_secret_expires_at: z.string().nullable(),
  last_delivery: z
    .object({
      at: z.string(),
      status: z.enum(['succeeded', 'failed']),
      status_code: z.number().int().nullable(),
      /** Why the attempt failed ("HTTP 503 Service Unavailable", "Connection refused" …); null when it succeeded. */
      error: z.string().nullable(),
    })
    .nullable()
    .describe('The last attempt to deliver anything to this webhook'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TWebhook = z.infer<typeof ZWebhook>;
export const ZWebhookList = z.array(ZWebhook);

/** The answer to creating a webhook: the only time `secret` is shown. */
export const ZCreatedWebhook = ZWebhook.extend({ secret: z.string() });
export type TCreatedWebhook = z.infer<typeof ZCreatedWebhook>;

export const ZRotatedWebhookSecret = z.object({
  secret: z.string(),
  /** The old secret keeps signing (a second signature) until then. */
  previous_secret_expires_at: z.string(),
});
export type TRotatedWebhookSecret = z.infer<typeof ZRotatedWebhookSecret>;

// --- Event payloads: the body of every delivery is `{type, timestamp, data}`. ---

export const ZWebhookPingData = z.object({ webhook_uuid: z.uuid(), message: z.string() });
export const ZConversationCreatedData = z.object({ application_uuid: z.uuid(), chatroom: ZChatroom });
export const ZMessageCreatedData = z.object({
  application_uuid: z.uuid(),
  chatroom_uuid: z.string(),
  /** The chatroom's channel: web, api, widget, slack, telegram. */
  source: ZChatroomSource,
  /** A user, visitor or owner message, or a finished answer (`sender_identifier` `assistant`). */
  message: ZMessage,
});
export const ZFeedbackCreatedData = z.object({
  application_uuid: z.uuid(),
  chatroom_uuid: z.string(),
  feedback: ZFeedback,
  message: ZMessage,
});
export const ZHandoffRequestedData = z.object({
  application_uuid: z.uuid(),
  chatroom: ZChatroom,
  visitor_uuid: z.string().nullable(),
});
export const ZKnowledgeItemEventData = z.object({ application_uuid: z.uuid(), item: ZKnowledgeItem });

/** The `data` of each event type. */
export const WEBHOOK_EVENT_DATA = {
  'webhook.ping': ZWebhookPingData,
  'conversation.created': ZConversationCreatedData,
  'message.created': ZMessageCreatedData,
  'feedback.created': ZFeedbackCreatedData,
  'handoff.requested': ZHandoffRequestedData,
  'knowledge.item.ready': ZKnowledgeItemEventData,
  'knowledge.item.failed': ZKnowledgeItemEventData,
} as const satisfies Record<TWebhookEventType, z.ZodType>;
export type TWebhookEventData<T extends TWebhookEventType> = z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>;

const payloadOf = <T extends TWebhookEventType>(type: T) =>
  z.object({
    type: z.literal(type),
    /** When the event happened (ISO 8601), the same on every retry. */
    timestamp: z.string(),
    data: WEBHOOK_EVENT_DATA[type],
  });

/** The JSON body of a delivery, one shape per event type. */
export const ZWebhookPayload = z.discriminatedUnion('type', [
  payloadOf('webhook.ping'),
  payloadOf('conversation.created'),
  payloadOf('message.created'),
  payloadOf('feedback.created'),
  payloadOf('handoff.requested'),
  payloadOf('knowledge.item.ready'),
  payloadOf('knowledge.item.failed'),
]);
export type TWebhookPayload = z.infer<typeof ZWebhookPayload>;

// --- Delivery log ---

export const ZWebhookAttempt = z.object({
  /** 1 for the first try. */
  number: z.number().int(),
  started_at: z.string(),
  duration_ms: z.number().int(),
  /** The receiver's HTTP status; null when none came (timeout, refused, blocked address). */
  status_code: z.number().int().nullable(),
  ok: z.boolean(),
  /** Why it failed, in words; null when it succeeded. */
  error: z.string().nullable(),
  /** The first KB of the receiver's answer, as text without control characters. */
  response_excerpt: z.string().nullable(),
});
export type TWebhookAttempt = z.infer<typeof ZWebhookAttempt>;

export const ZWebhookDelivery = z.object({
  uuid: z.uuid(),
  /** The `webhook-id` header: the same on every attempt. */
  message_id: z.string(),
  event_type: ZWebhookEventType,
  status: ZWebhookDeliveryStatus,
  created_at: z.string(),
  attempt_count: z.number().int(),
  /** When the next attempt is due; null unless `pending`. */
  next_attempt_at: z.string().nullable(),
  payload: ZWebhookPayload,
  /** Oldest first. */
  attempts: z.array(ZWebhookAttempt),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveryList = z.object({
  deliveries: z.array(ZWebhookDelivery),
  /** Pass as `before` for older deliveries; null when there are none. */
  next_before: z.uuid().nullable(),
});
export type TWebhookDeliveryList = z.infer<typeof ZWebhookDeliveryList>;

export const ZWebhookDeliveriesQuery = z.object({
  limit: z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1, 'At least 1')
    .max(100, 'At most 100')
    .default(20),
  before: z.uuid({ error: 'Not a valid id' }).optional(),
});

export const ZWebhookParams = z.object({ webhookId: z.uuid({ error: 'Not a valid id' }) });
export const ZWebhookDeliveryParams = ZWebhookParams.extend({
  deliveryId: z.uuid({ error: 'Not a valid id' }),
});
