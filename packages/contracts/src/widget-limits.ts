/** The widget's size limits: without zod, so the chat's small bundle can read them too. */
export const WIDGET_LIMITS = {
  allowedOrigins: 20,
  suggestedQuestions: 6,
  suggestedQuestionLength: 120,
  titleLength: 60,
  greetingLength: 500,
  limitMessageLength: 300,
  pageUrlLength: 2000,
  /** The most messages a limit may allow in its period. */
  messagesPerPeriod: {
    visitor_messages_per_hour: 10_000,
    visitor_messages_per_day: 100_000,
    ip_messages_per_hour: 100_000,
    ip_messages_per_day: 1_000_000,
  },
  /** The longest a visitor may be told to wait for a person. */
  waitMinutes: 24 * 60,
} as const;
