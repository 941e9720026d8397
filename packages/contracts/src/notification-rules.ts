/**
 * The notification events, their labels and the profile's bounds: read by the API and the web app.
 * No zod here: the notification settings page imports this without shipping the schemas
 * (notifications.ts builds them on it).
 */
export const NOTIFICATION_EVENTS = [
  'handoff_requested',
  'conversation_started',
  'visitor_replied',
  'negative_feedback',
  'unanswered_question',
  'knowledge_failed',
  'integration_failed',
] as const;
export type TNotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** What each event means, as the settings screen says it. */
export const NOTIFICATION_EVENT_LABELS: Record<TNotificationEvent, string> = {
  handoff_requested: 'A visitor asks for a person',
  conversation_started: 'A visitor starts a conversation (widget, Slack, Telegram)',
  visitor_replied: 'A visitor writes in a conversation you handle',
  negative_feedback: 'An answer gets a thumbs down',
  unanswered_question: 'The knowledge did not cover a question',
  knowledge_failed: 'A knowledge item could not be indexed',
  integration_failed: 'A webhook or chat integration stopped working',
};

export const EMAIL_DELAY_MAX_MINUTES = 1440;

export const DIGEST_FREQUENCIES = ['off', 'daily', 'weekly'] as const;
