import { z } from 'zod';

/**
 * An application's analytics (issue 20, decision 066): daily rollups kept by the product's events,
 * days being dates in the owner's time zone, the same dates the conversation log filters by.
 */

/** The longest range asked at once, in days (a leap year). */
export const ANALYTICS_MAX_DAYS = 366;
/** The range shown without `from`/`to`: the last 30 days, today included. */
export const ANALYTICS_DEFAULT_DAYS = 30;
/** How many questions and cited items are listed. */
export const ANALYTICS_TOP = 10;

/** A calendar date that exists: `2026-02-30` is refused, not rolled over. */
const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date (YYYY-MM-DD)')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, 'Not a valid date');

export const ZAnalyticsQuery = z
  .object({
    from: ZDay.optional(),
    to: ZDay.optional(),
    /** The last `days` days ending today, instead of `from`/`to`. */
    days: z.coerce
      .number({ error: 'Must be a number' })
      .int('Must be a whole number')
      .min(1, 'At least 1')
      .max(ANALYTICS_MAX_DAYS, `At most ${ANALYTICS_MAX_DAYS}`)
      .optional(),
  })
  .refine((q) => q.days === undefined || (!q.from && !q.to), {
    message: 'Give either days or from/to',
    path: ['days'],
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'Must not be after to', path: ['from'] })
  .refine((q) => !q.from || !q.to || daysBetween(q.from, q.to) < ANALYTICS_MAX_DAYS, {
    message: `At most ${ANALYTICS_MAX_DAYS} days`,
    path: ['from'],
  });
export type TAnalyticsQuery = z.infer<typeof ZAnalyticsQuery>;

/** Whole days from one date to another (`YYYY-MM-DD`, UTC calendar arithmetic). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Tokens one model spent, and what they cost where the owner entered its prices per million tokens. */
export const ZModelUsage = z.object({
  /** The provider model's uuid; null for the built-in answerer (any uuid the database holds: z.guid). */
  model_uuid: z.guid().nullable(),
  model_name: z.string(),
  answers: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** tokens / 1e6 × price, summed over the prices entered; null when the model has none. */
  estimated_cost: z.number().nullable(),
});
export type TModelUsage = z.infer<typeof ZModelUsage>;

const counts = {
  conversations: z.number().int(),
  messages: z.number().int(),
  /** Distinct visitors (isVisitorSender): over the range, a visitor of several days counts once. */
  visitors: z.number().int(),
  rated_up: z.number().int(),
  rated_down: z.number().int(),
  not_covered: z.number().int(),
  handoffs_requested: z.number().int(),
  handoffs_answered: z.number().int(),
  /** Median wait for the owner's first reply after a handoff request; null without one. */
  human_reply_median_ms: z.number().int().nullable(),
  answers: z.number().int(),
  first_token_p50_ms: z.number().int().nullable(),
  first_token_p95_ms: z.number().int().nullable(),
  models: z.array(ZModelUsage),
  /** The sum of the models' estimated costs; null when no model used has a price. */
  estimated_cost: z.number().nullable(),
};

export const ZAnalyticsDay = z.object({ day: z.string(), ...counts });
export type TAnalyticsDay = z.infer<typeof ZAnalyticsDay>;
export const ZAnalyticsTotals = z.object(counts);
export type TAnalyticsTotals = z.infer<typeof ZAnalyticsTotals>;

export const ZTopQuestion = z.object({
  /** The most recent wording of the group. */
  question: z.string(),
  count: z.number().int(),
});
export type TTopQuestion = z.infer<typeof ZTopQuestion>;

export const ZTopCitedItem = z.object({
  item_uuid: z.guid(),
  /** The title when last cited (the item may be gone since). */
  title: z.string(),
  citations: z.number().int(),
});
export type TTopCitedItem = z.infer<typeof ZTopCitedItem>;

export const ZAnalytics = z.object({
  from: z.string(),
  to: z.string(),
  /** The owner's time zone the days are dates in. */
  time_zone: z.string(),
  /** Every day of the range, oldest first, days without activity included as zeros. */
  days: z.array(ZAnalyticsDay),
  totals: ZAnalyticsTotals,
  /** The most asked questions, grouped as the inbox groups similar questions. */
  top_questions: z.array(ZTopQuestion),
  top_cited: z.array(ZTopCitedItem),
});
export type TAnalytics = z.infer<typeof ZAnalytics>;
