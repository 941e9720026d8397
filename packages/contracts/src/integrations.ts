import { z } from 'zod';
import { oneLine } from './text.ts';

/**
 * Chat integrations (issue 11, decision 047): an application answering inside Slack or Telegram.
 * Tokens and secrets are checked against the service, stored encrypted and never sent back.
 */
export const INTEGRATION_KINDS = ['slack', 'telegram'] as const;
export const ZIntegrationKind = z.enum(INTEGRATION_KINDS);
export type TIntegrationKind = z.infer<typeof ZIntegrationKind>;

export const ZIntegrationStatus = z.enum(['connected', 'error']);
export type TIntegrationStatus = z.infer<typeof ZIntegrationStatus>;

/** How a Telegram bot receives its updates: pushed to Cairn, or fetched by Cairn (long polling). */
export const ZTelegramMode = z.enum(['webhook', 'polling']);
export type TTelegramMode = z.infer<typeof ZTelegramMode>;

/** A user has at most this many chat integrations. */
export const INTEGRATIONS_MAX = 20;

/**
 * The bot scopes a Cairn Slack app needs (also in the manifest). The history and read scopes let a
 * retried post find the one it made before (decision 073); an app without them still posts.
 */
export const SLACK_BOT_SCOPES = [
  'app_mentions:read',
  'channels:history',
  'channels:read',
  'chat:write',
  'groups:history',
  'groups:read',
  'im:history',
  'im:read',
  'im:write',
] as const;
/** The events a Cairn Slack app subscribes to. */
export const SLACK_BOT_EVENTS = ['app_mention', 'message.im'] as const;

const ZApplicationUuid = z.uuid({ error: 'Not a valid id' });

/** `xoxb-…`: the Bot User OAuth Token of the Slack app (OAuth & Permissions). */
export const ZSlackBotToken = oneLine({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(255, 'At most 255 characters')
  .regex(/^xoxb-[A-Za-z0-9-]+$/, 'Must be a bot token starting with xoxb- (OAuth & Permissions)');

/** The Slack app's Signing Secret (Basic Information → App Credentials): 32 letters and digits. */
export const ZSlackSigningSecret = oneLine({ error: 'Required' })
  .trim()
  .regex(
    /^[A-Za-z0-9]{32}$/,
    'Must be the 32-character Signing Secret (Basic Information → App Credentials)',
  );

/** `123456789:AA…`: the token @BotFather gives. */
export const ZTelegramBotToken = oneLine({ error: 'Required' })
  .trim()
  .max(255, 'At most 255 characters')
  .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,}$/, 'Must be the token @BotFather gave, such as 123456789:AAF…');

export const ZCreateSlackIntegration = z
  .object({
    kind: z.literal('slack'),
    application_uuid: ZApplicationUuid,
    bot_token: ZSlackBotToken,
    signing_secret: ZSlackSigningSecret,
  })
  .strict();
export const ZCreateTelegramIntegration = z
  .object({
    kind: z.literal('telegram'),
    application_uuid: ZApplicationUuid,
    bot_token: ZTelegramBotToken,
  })
  .strict();

export const ZCreateIntegrationRequest = z.discriminatedUnion(
  'kind',
  [ZCreateSlackIntegration, ZCreateTelegramIntegration],
  { error: 'kind: must be slack or telegram' },
);
export type TCreateIntegrationRequest = z.input<typeof ZCreateIntegrationRequest>;

/** Any of the fields; `signing_secret` applies to Slack integrations only. */
export const ZUpdateIntegrationRequest = z
  .object({
    application_uuid: ZApplicationUuid.optional(),
    bot_token: oneLine({ error: 'Must be text' }).trim().min(1, 'Required').max(255).optional(),
    signing_secret: ZSlackSigningSecret.optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'Give at least one field to change');
export type TUpdateIntegrationRequest = z.input<typeof ZUpdateIntegrationRequest>;

const base = {
  uuid: z.uuid(),
  application_uuid: z.uuid(),
  /** `error` after a failed delivery or poll (see `last_error`); `connected` again after a success. */
  status: ZIntegrationStatus,
  /** The bot's name as the service knows it. */
  bot_name: z.string(),
  last_event_at: z.string().nullable(),
  /** The last failure, in words (kept after a later success, with its time). */
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const ZSlackIntegration = z.object({
  kind: z.literal('slack'),
  ...base,
  /** Event Subscriptions → Request URL. */
  events_url: z.string(),
  /** Interactivity & Shortcuts → Request URL (the 👍/👎 buttons). */
  interactivity_url: z.string(),
  /** A Slack app manifest (JSON) with the scopes, events and both URLs: paste it in the app's manifest editor. */
  manifest: z.string(),
});
export const ZTelegramIntegration = z.object({
  kind: z.literal('telegram'),
  ...base,
  mode: ZTelegramMode,
  /** Why this mode, in a sentence. */
  mode_reason: z.string(),
});
export const ZIntegration = z.discriminatedUnion('kind', [ZSlackIntegration, ZTelegramIntegration]);
export type TIntegration = z.infer<typeof ZIntegration>;
export type TSlackIntegration = z.infer<typeof ZSlackIntegration>;
export type TTelegramIntegration = z.infer<typeof ZTelegramIntegration>;
export const ZIntegrationList = z.array(ZIntegration);

export const ZIntegrationParams = z.object({ integrationId: z.uuid({ error: 'Not a valid id' }) });

/**
 * What Slack posts to the events URL (only the fields Cairn reads; Slack adds others). Validated
 * after the signature check.
 */
export const ZSlackEventEnvelope = z.looseObject({
  type: z.string(),
  challenge: z.string().max(500).optional(),
  event_id: z.string().max(200).optional(),
  event: z
    .looseObject({
      type: z.string(),
      text: z.string().optional(),
      user: z.string().optional(),
      bot_id: z.string().optional(),
      subtype: z.string().optional(),
      channel: z.string().optional(),
      channel_type: z.string().optional(),
      ts: z.string().optional(),
      thread_ts: z.string().optional(),
    })
    .optional(),
});
export type TSlackEventEnvelope = z.infer<typeof ZSlackEventEnvelope>;

/** A Telegram update (only what Cairn reads). */
export const ZTelegramUpdate = z.looseObject({
  update_id: z.number().int(),
  message: z
    .looseObject({
      message_id: z.number().int(),
      chat: z.looseObject({ id: z.number().int(), type: z.string().optional() }),
      from: z.looseObject({ id: z.number().int(), is_bot: z.boolean().optional() }).optional(),
      text: z.string().optional(),
    })
    .optional(),
});
export type TTelegramUpdate = z.infer<typeof ZTelegramUpdate>;
