import { z } from 'zod';
import { ZFeedback, ZHandledBy, ZMessageStatus, ZMessageText, ZSource } from './chat.ts';
import { freeText, oneLine } from './text.ts';
import { WIDGET_LIMITS } from './widget-limits.ts';
import { NOT_AN_ORIGIN, ORIGIN_MAX, originOf } from './widget-rules.ts';

/**
 * The website widget (issue 10, decision 045). Three principals meet here:
 * - the owner edits the settings (`/api/applications/{appId}/widget/`, session auth);
 * - the loader (`/widget.js`, on the host page) reads the launcher settings, CORS-allowed for the
 *   allowed origins only;
 * - the visitor, in the iframe (`/embed/v1/{appId}?origin=…`), calls `/api/widget/v1/*` with a
 *   signed visitor token (`Authorization: Bearer cwv1.…`) bound to the application, the visitor
 *   and the host origin.
 */

/** Prefix of a visitor token; `Bearer` values with it are accepted on `/api/widget/v1/*` only. */
export const VISITOR_TOKEN_PREFIX = 'cwv1.';
/** A visitor token lives this long; the iframe renews it while it is open. */
export const VISITOR_TOKEN_TTL_SECONDS = 60 * 60;
/** An expired token may still be renewed (same visitor, same conversation) for this long. */
export const VISITOR_TOKEN_RENEW_WINDOW_SECONDS = 7 * 24 * 60 * 60;
export { VISITOR_SENDER_PREFIX, visitorSenderOf } from './message-rules.ts';

export { WIDGET_LIMITS } from './widget-limits.ts';

/** Where a message in the widget comes from. */
export const ZWidgetRole = z.enum(['visitor', 'assistant', 'human']);
export type TWidgetRole = z.infer<typeof ZWidgetRole>;

/**
 * An exact origin: scheme (http or https), host and optional port; no path, query, wildcard or
 * credentials. Stored as the browser writes `location.origin` (lowercase host, default port dropped).
 */
export const ZOrigin = oneLine({ error: 'Required' })
  .trim()
  .max(ORIGIN_MAX, `At most ${ORIGIN_MAX} characters`)
  .transform((value, ctx) => {
    const origin = originOf(value);
    if (origin !== null) return origin;
    ctx.addIssue({ code: 'custom', message: NOT_AN_ORIGIN });
    return z.NEVER;
  });

export const ZHexColor = z
  .string({ error: 'Required' })
  .regex(/^#[0-9a-fA-F]{6}$/, 'Must be a colour like #2563eb')
  .overwrite((c) => c.toLowerCase());

export const ZWidgetAppearance = z.object({
  title: oneLine({ error: 'Required' }).trim().min(1, 'Required').max(WIDGET_LIMITS.titleLength),
  greeting: freeText().trim().max(WIDGET_LIMITS.greetingLength),
  suggested_questions: z
    .array(
      oneLine({ error: 'Must be text' })
        .trim()
        .min(1, 'Must not be empty')
        .max(WIDGET_LIMITS.suggestedQuestionLength),
    )
    .max(WIDGET_LIMITS.suggestedQuestions, `At most ${WIDGET_LIMITS.suggestedQuestions} questions`),
  accent_color: ZHexColor,
  position: z.enum(['left', 'right']),
  open_on_load: z.boolean(),
  show_sources: z.boolean(),
  feedback_buttons: z.boolean(),
});
export type TWidgetAppearance = z.infer<typeof ZWidgetAppearance>;

const perPeriod = (max: number) => z.number({ error: 'Must be a number' }).int().min(1).max(max);

/** Messages a visitor (and an IP address, across visitors) may send; counted in the database. */
export const ZWidgetLimits = z.object({
  visitor_messages_per_hour: perPeriod(WIDGET_LIMITS.messagesPerPeriod.visitor_messages_per_hour),
  visitor_messages_per_day: perPeriod(WIDGET_LIMITS.messagesPerPeriod.visitor_messages_per_day),
  ip_messages_per_hour: perPeriod(WIDGET_LIMITS.messagesPerPeriod.ip_messages_per_hour),
  ip_messages_per_day: perPeriod(WIDGET_LIMITS.messagesPerPeriod.ip_messages_per_day),
  /** Shown to the visitor when a limit is hit. */
  limit_message: freeText().trim().min(1, 'Required').max(WIDGET_LIMITS.limitMessageLength),
});
export type TWidgetLimits = z.infer<typeof ZWidgetLimits>;

/** Human takeover: visitors may ask for a person; the owner is told and has `wait_minutes` to reply. */
export const ZWidgetTakeover = z.object({
  enabled: z.boolean(),
  wait_minutes: z.number({ error: 'Must be a number' }).int().min(1).max(WIDGET_LIMITS.waitMinutes),
  /** E-mail the owner when a visitor asks for a person. */
  email_owner: z.boolean(),
  /** What the visitor is told when nobody replied in time (the assistant then answers again). */
  no_reply_message: freeText().trim().min(1, 'Required').max(WIDGET_LIMITS.limitMessageLength),
});
export type TWidgetTakeover = z.infer<typeof ZWidgetTakeover>;

export const WIDGET_REFUSAL_REASONS = ['disabled', 'origin_not_allowed'] as const;

/** A site whose pages asked for the widget and were refused: what the owner sees of it. */
export const ZRefusedOrigin = z.object({
  origin: z.string(),
  /** `disabled`: the widget was off; `origin_not_allowed`: the site is not in the list. */
  reason: z.enum(WIDGET_REFUSAL_REASONS),
  last_refused_at: z.string(),
});
export type TRefusedOrigin = z.infer<typeof ZRefusedOrigin>;

export const ZWidgetSettings = ZWidgetAppearance.extend({
  enabled: z.boolean(),
  allowed_origins: z.array(z.string()),
  /**
   * Sites refused lately, latest first (a few at most), that the widget would still refuse now:
   * why it draws nothing there.
   */
  refused_origins: z.array(ZRefusedOrigin),
  /** The exact HTML to paste into the site: one `<script>` tag served from PUBLIC_URL. */
  embed_snippet: z.string(),
  limits: ZWidgetLimits,
  takeover: ZWidgetTakeover,
  updated_at: z.string().nullable(),
});
export type TWidgetSettings = z.infer<typeof ZWidgetSettings>;

export const ZUpdateWidgetRequest = ZWidgetAppearance.partial()
  .extend({
    enabled: z.boolean().optional(),
    allowed_origins: z
      .array(ZOrigin)
      .max(WIDGET_LIMITS.allowedOrigins, `At most ${WIDGET_LIMITS.allowedOrigins} origins`)
      .transform((list) => [...new Set(list)])
      .optional(),
    limits: ZWidgetLimits.partial().optional(),
    takeover: ZWidgetTakeover.partial().optional(),
  })
  .strict();
export type TUpdateWidgetRequest = z.input<typeof ZUpdateWidgetRequest>;

export const DEFAULT_WIDGET_SETTINGS: Omit<
  TWidgetSettings,
  'embed_snippet' | 'title' | 'updated_at' | 'refused_origins'
> = {
  enabled: false,
  allowed_origins: [],
  greeting: 'Hi! Ask me anything.',
  suggested_questions: [],
  accent_color: '#2563eb',
  position: 'right',
  open_on_load: false,
  show_sources: true,
  feedback_buttons: true,
  limits: {
    visitor_messages_per_hour: 30,
    visitor_messages_per_day: 100,
    ip_messages_per_hour: 120,
    ip_messages_per_day: 500,
    limit_message: 'You have reached the message limit for now. Please try again later.',
  },
  takeover: {
    enabled: true,
    wait_minutes: 5,
    email_owner: true,
    no_reply_message: 'Nobody is available right now, so I will keep helping you here.',
  },
};

/** What the loader needs to draw the launcher (`GET /api/widget/v1/launcher/{appId}/`, CORS). */
export const ZWidgetLauncher = ZWidgetAppearance.pick({
  title: true,
  accent_color: true,
  position: true,
  open_on_load: true,
});
export type TWidgetLauncher = z.infer<typeof ZWidgetLauncher>;

/** What the chat in the iframe shows (part of the embed page's boot data). */
export const ZWidgetConfig = ZWidgetAppearance.extend({ takeover_enabled: z.boolean() });
export type TWidgetConfig = z.infer<typeof ZWidgetConfig>;

/** The embed page's boot data: `<script id="cairn-boot" type="application/json">`. */
export interface TWidgetBoot {
  application_uuid: string;
  /** The host page's origin this chat was opened for (the only target of its postMessage). */
  origin: string;
  /** A fresh token for a new visitor; the iframe keeps an earlier one (renewed) when it has one. */
  token: string;
  expires_at: string;
  /** The owner's settings page previewing the chat: nothing can be sent (token is empty). */
  preview: boolean;
  config: TWidgetConfig;
}

export const ZVisitorSession = z.object({
  token: z.string(),
  visitor_uuid: z.string(),
  expires_at: z.string(),
});
export type TVisitorSession = z.infer<typeof ZVisitorSession>;

export const ZWidgetConversation = z.object({
  uuid: z.string(),
  handled_by: ZHandledBy,
  /** Set while the visitor waits for a person. */
  waiting_since: z.string().nullable(),
  created_at: z.string(),
});
export type TWidgetConversation = z.infer<typeof ZWidgetConversation>;

/** A message as the visitor sees it: no internal metadata. */
export const ZWidgetMessage = z.object({
  uuid: z.string(),
  role: ZWidgetRole,
  /** The owner's display name on a human reply; null otherwise. */
  author_name: z.string().nullable(),
  text: z.string(),
  status: ZMessageStatus,
  run: z.number().int(),
  /** Empty when the owner hides sources. */
  sources: z.array(ZSource),
  feedback: ZFeedback.nullable(),
  /** The assistant's answer said the knowledge does not cover the question (the widget may offer a person). */
  not_covered: z.boolean(),
  /**
   * The assistant speaking about the conversation, not answering (nobody is available; the
   * assistant is back after a person): shown as a notice, with nothing to rate.
   */
  notice: z.boolean(),
  created_at: z.string(),
});
export type TWidgetMessage = z.infer<typeof ZWidgetMessage>;

export const ZWidgetConversationMessages = z.object({
  conversation: ZWidgetConversation,
  messages: z.array(ZWidgetMessage),
});
export type TWidgetConversationMessages = z.infer<typeof ZWidgetConversationMessages>;

export const ZWidgetSendRequest = z
  .object({
    /** A conversation of this visitor, or null to start a new one. */
    conversation_uuid: z.uuid({ error: 'Not a valid conversation' }).nullable(),
    message: ZMessageText,
    /** The host page the visitor is on (kept on a new conversation, without query or fragment). */
    page_url: oneLine().trim().max(WIDGET_LIMITS.pageUrlLength).optional(),
  })
  .strict();
export type TWidgetSendRequest = z.input<typeof ZWidgetSendRequest>;

export const ZWidgetSendResponse = z.object({
  conversation: ZWidgetConversation,
  message: ZWidgetMessage,
  /** The answer being prepared; null while a person handles the conversation. */
  answer: ZWidgetMessage.nullable(),
});
export type TWidgetSendResponse = z.infer<typeof ZWidgetSendResponse>;

export const ZWidgetFeedbackRequest = z.object({ feedback: ZFeedback.nullable() }).strict();

/**
 * Events of `GET /api/widget/v1/events/` (Server-Sent Events, `event: message`, `data: <json>`):
 * the visitor's own conversations only. `delta` follows the owner's rule: apply when `offset`
 * equals the text held for that run, otherwise refetch the conversation.
 */
export type TWidgetEvent =
  | { kind: 'created'; conversation_uuid: string; message: TWidgetMessage }
  | {
      kind: 'delta';
      conversation_uuid: string;
      message_uuid: string;
      run: number;
      offset: number;
      delta: string;
    }
  | { kind: 'updated'; conversation_uuid: string; message: TWidgetMessage }
  | { kind: 'conversation'; conversation: TWidgetConversation };

/**
 * postMessage between the loader (host page) and the iframe. Each side names the other's origin as
 * the target and checks `event.origin` and `event.source`.
 */
export type TWidgetHostMessage =
  | { cairn: 'reset' }
  | { cairn: 'focus' }
  /** The host page's origin and path (no query or fragment), kept as the page a new conversation started on. */
  | { cairn: 'page'; url: string };
/**
 * What the chat keeps between pages: the visitor's token and conversation. The loader stores it in
 * the host page's storage (a third-party iframe's own storage is blocked by many browsers) and hands
 * it to a new iframe in the URL fragment (`#cairn=<JSON>`), which never reaches a server.
 */
export interface TWidgetVisitorState {
  token: string;
  expires_at: string;
  conversation_uuid: string | null;
}

/** The owner's settings page to its preview iframe: the appearance as it is in the form, saved or not. */
export type TWidgetPreviewMessage = { cairn: 'preview'; config: TWidgetConfig };
export type TWidgetFrameMessage =
  | { cairn: 'ready' }
  | { cairn: 'close' }
  | { cairn: 'state'; state: TWidgetVisitorState }
  | { cairn: 'message'; role: TWidgetRole; text: string };
