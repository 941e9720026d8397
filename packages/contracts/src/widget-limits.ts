/** The widget's size limits: without zod, so the chat's small bundle can read them too. */
export const WIDGET_LIMITS = {
  allowedOrigins: 20,
  suggestedQuestions: 6,
  suggestedQuestionLength: 120,
  titleLength: 60,
  greetingLength: 500,
  limitMessageLength: 300,
  pageUrlLength: 2000,
} as const;
