/** An application's settings limits: without zod, so the settings form imports them in the browser. */

/**
 * How strictly answers stay within the knowledge:
 * - `strict`: answer only from the retrieved passages; say so when they do not hold the answer.
 * - `balanced`: prefer the passages; general knowledge may fill gaps, marked as such.
 * - `relaxed`: use the passages as context and answer freely.
 */
export const STRICTNESS_LEVELS = ['strict', 'balanced', 'relaxed'] as const;

export const INSTRUCTIONS_MAX = 4000;
export const NO_ANSWER_MESSAGE_MAX = 1000;
export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 3650;
export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 2;
