import { z } from 'zod';
import {
  DIGEST_FREQUENCIES,
  EMAIL_DELAY_MAX_MINUTES,
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENTS,
  type TNotificationEvent,
} from './notification-rules.ts';

export {
  DIGEST_FREQUENCIES,
  EMAIL_DELAY_MAX_MINUTES,
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENTS,
  type TNotificationEvent,
} from './notification-rules.ts';

/**
 * The owner's notification profile and in-app notifications (issue 12, decision 049): which events
 * reach the owner on which channels, how long an e-mail waits, quiet hours and the digest.
 */
export const ZNotificationEvent = z.enum(NOTIFICATION_EVENTS, {
  error: `Must be one of: ${NOTIFICATION_EVENTS.join(', ')}`,
});

/**
 * What a notification is about: one of the events, or `test`, the bell's entry of "send me a test",
 * which no profile names: it goes to no other channel and is not news for the digest.
 */
export const NOTIFICATION_KINDS = [...NOTIFICATION_EVENTS, 'test'] as const;
export type TNotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_CHANNELS = ['email', 'push', 'slack', 'in_app'] as const;
export const ZNotificationChannel = z.enum(NOTIFICATION_CHANNELS, {
  error: `Must be one of: ${NOTIFICATION_CHANNELS.join(', ')}`,
});
export type TNotificationChannel = z.infer<typeof ZNotificationChannel>;

/** `HH:MM`, 24-hour. */
export const ZClockTime = z
  .string({ error: 'Must be a time such as 22:00' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Must be a time such as 22:00 (HH:MM, 24-hour)');

/** True for a time zone this runtime knows (IANA names such as Europe/Paris, or UTC). */
export function isTimeZone(value: string): boolean {
  if (value.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const ZTimeZone = z
  .string({ error: 'Must be a time zone such as Europe/Paris' })
  .refine(isTimeZone, 'Must be an IANA time zone such as Europe/Paris');

export const ZQuietHours = z.strictObject({
  start: ZClockTime,
  end: ZClockTime,
  time_zone: ZTimeZone,
  /** A visitor asking for a person is e-mailed even during quiet hours. */
  urgent_handoff: z.boolean().default(false),
});
export type TQuietHours = z.infer<typeof ZQuietHours>;

/** An event's channels, each once; none means the owner is not told (decision 067). */
const ZEventChannelsInput = z
  .array(ZNotificationChannel)
  .max(NOTIFICATION_CHANNELS.length)
  .transform((channels) => [...new Set(channels)]);

/** A channel ID (C0123ABC) or name (#support) of the workspace of one of the owner's Slack integrations. */
export const ZSlackTarget = z.strictObject({
  integration_uuid: z.uuid({ error: 'Must be the uuid of one of your Slack integrations' }),
  channel: z
    .string({ error: 'Required' })
    .trim()
    .regex(/^#?[A-Za-z0-9._-]{1,80}$/, 'Must be a channel ID such as C0123ABCD or a name such as #support'),
});

const profileShape = <C extends z.ZodType, S extends z.ZodType, T extends z.ZodType>(
  channels: C,
  slack: S,
  timeZone: T,
) =>
  z.strictObject({
    events: z.strictObject(
      Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, channels])) as Record<TNotificationEvent, C>,
    ),
    email_delay_minutes: z
      .number({ error: 'Must be a number of minutes' })
      .int('Must be a whole number of minutes')
      .min(0, 'Must be 0 or more')
      .max(EMAIL_DELAY_MAX_MINUTES, `At most ${EMAIL_DELAY_MAX_MINUTES} minutes`),
    quiet_hours: ZQuietHours.nullable(),
    digest: z.enum(DIGEST_FREQUENCIES, { error: `Must be one of: ${DIGEST_FREQUENCIES.join(', ')}` }),
    digest_hour: z
      .number({ error: 'Must be an hour from 0 to 23' })
      .int('Must be an hour from 0 to 23')
      .min(0, 'Must be an hour from 0 to 23')
      .max(23, 'Must be an hour from 0 to 23'),
    /** The owner's time zone: the digest goes out at `digest_hour` there. */
    time_zone: timeZone,
    /** Where the `slack` channel posts; events with `slack` are not sent to Slack while it is null. */
    slack,
  });

/** What `PUT` takes (repeated channels dropped). */
export const ZNotificationProfileInput = profileShape(
  ZEventChannelsInput,
  ZSlackTarget.nullable().default(null),
  ZTimeZone.default('UTC'),
);
/** What is stored and answered (no transform: a response schema must be serialisable as is). */
export const ZNotificationProfile = profileShape(
  z.array(ZNotificationChannel),
  ZSlackTarget.nullable(),
  ZTimeZone,
);
export type TNotificationProfile = z.output<typeof ZNotificationProfile>;
export type TNotificationProfileInput = z.input<typeof ZNotificationProfileInput>;

/**
 * Quiet by default (decision 067): handoffs and failures by e-mail and in the app, what a person
 * did in a conversation (started one, replied, 👎) in the app; questions the knowledge did not
 * cover only in the "Needs attention" inbox, which groups them. E-mails wait 3 minutes.
 */
export const DEFAULT_NOTIFICATION_PROFILE: TNotificationProfile = {
  events: {
    handoff_requested: ['email', 'in_app'],
    conversation_started: ['in_app'],
    visitor_replied: ['in_app'],
    negative_feedback: ['in_app'],
    unanswered_question: [],
    knowledge_failed: ['email', 'in_app'],
    integration_failed: ['email', 'in_app'],
  },
  email_delay_minutes: 3,
  quiet_hours: null,
  digest: 'off',
  digest_hour: 9,
  time_zone: 'UTC',
  slack: null,
};

export const ZNotification = z.object({
  uuid: z.uuid(),
  event: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  /** The web app path it points at (a conversation, the knowledge base, the integrations). */
  link: z.string().nullable(),
  application_uuid: z.uuid().nullable(),
  chatroom_uuid: z.uuid().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type TNotification = z.infer<typeof ZNotification>;

export const NOTIFICATIONS_PAGE = 30;

export const ZNotificationList = z.object({
  unread_count: z.number().int(),
  results: z.array(ZNotification),
});
export type TNotificationList = z.infer<typeof ZNotificationList>;

export const ZMarkReadRequest = z.union(
  [
    z.strictObject({
      uuids: z
        .array(z.uuid({ error: 'Must be a notification uuid' }))
        .min(1)
        .max(200),
    }),
    z.strictObject({ all: z.literal(true) }),
  ],
  { error: 'Give `uuids` (a list of notification uuids) or `all: true`' },
);

export const ZMarkReadResponse = z.object({ unread_count: z.number().int() });

export const ZSendTestRequest = z.strictObject({
  channel: z.enum(['email', 'in_app', 'push', 'slack'], { error: 'Must be email, in_app, push or slack' }),
});
export const ZSendTestResponse = z.object({ channel: ZNotificationChannel, sent_to: z.string() });

export const ZUnsubscribeQuery = z.strictObject({
  token: z.string({ error: 'Required' }).min(1, 'Required').max(1000, 'Too long'),
});
/** What an unsubscribe link turns off: one event's e-mail, or the digest. */
export const UNSUBSCRIBE_TOPICS = [...NOTIFICATION_EVENTS, 'digest'] as const;
export type TUnsubscribeTopic = (typeof UNSUBSCRIBE_TOPICS)[number];
export const UNSUBSCRIBE_LABELS: Record<TUnsubscribeTopic, string> = {
  ...NOTIFICATION_EVENT_LABELS,
  digest: 'The digest e-mail',
};
export const ZUnsubscribeResponse = z.object({ event: z.enum(UNSUBSCRIBE_TOPICS), email: z.literal(false) });

/** The server's VAPID public key (base64url), for `pushManager.subscribe({applicationServerKey})`. */
export const ZPushConfig = z.object({ public_key: z.string(), subscriptions: z.number().int() });
export type TPushConfig = z.infer<typeof ZPushConfig>;

const base64url = (max: number) =>
  z
    .string({ error: 'Required' })
    .max(max, 'Too long')
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'Must be base64url');

/** A browser's `PushSubscription.toJSON()`. */
export const ZPushSubscriptionRequest = z.object({
  endpoint: z
    .url({ protocol: /^https?$/, error: 'Must be the http(s) endpoint of a push service' })
    .max(2000, 'Too long'),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: base64url(200), auth: base64url(100) }),
});
export type TPushSubscriptionRequest = z.infer<typeof ZPushSubscriptionRequest>;
export const ZPushEndpoint = z.strictObject({ endpoint: z.string().max(2000, 'Too long') });
