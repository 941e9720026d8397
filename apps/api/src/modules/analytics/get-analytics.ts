import {
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_TOP,
  type TAnalytics,
  type TAnalyticsQuery,
  type TAnalyticsTotals,
  type TModelUsage,
} from '@cairn/contracts/analytics';
import type { Db } from '@cairn/db/client';
import { type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/ctx.ts';
import { rowsOf } from '../../rag/sql-rows.ts';
import { mostSimilar } from '../attention/question-similarity.ts';
import { localDate, ownerTimeZone } from '../notifications/owner-time-zone.ts';

/** Distinct question wordings read per range before merging similar ones (the rest are rarer). */
const QUESTION_KEYS = 500;

/** Rows of a `GROUPING SETS ((day …), (…))` query: `day` is null on the range's total row. */
type ByDay<T> = T & { day: string | null };
type Price = { input: number | null; output: number | null };

/** `YYYY-MM-DD` plus `n` days. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A percentile in whole milliseconds, rounded half up here: PostgreSQL rounds a double half to
 * even (4.5 → 4), which is not how a person rounds.
 */
const roundedMs = (value: number | null | undefined) =>
  value === null || value === undefined ? null : Math.round(value);

async function query<T>(db: Db, statement: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(statement));
}

/**
 * The analytics of an application over a range of the owner's days (the caller checked ownership):
 * read from the rollups only, a handful of indexed range scans whatever the number of messages.
 */
export async function getAnalytics(
  { db }: Pick<Ctx, 'db'>,
  application: { id: number; ownerId: number },
  params: TAnalyticsQuery,
): Promise<TAnalytics> {
  const timeZone = await ownerTimeZone(db, application.ownerId);
  const span = params.days ?? ANALYTICS_DEFAULT_DAYS;
  const to = params.to ?? (params.from ? addDays(params.from, span - 1) : localDate(new Date(), timeZone));
  const from = params.from ?? addDays(to, 1 - span);
  const inRange = (table: string) =>
    sql`${sql.raw(table)}.application_id = ${application.id} AND ${sql.raw(table)}.day BETWEEN ${from}::date AND ${to}::date`;

  const [counters, visitors, answers, models, replies, prices, questions, cited] = await Promise.all([
    query<{ day: string; [k: string]: number | string }>(
      db,
      sql`SELECT day::text, conversations, messages, rated_up, rated_down, not_covered,
            handoffs_requested, handoffs_answered
          FROM analytics_days d WHERE ${inRange('d')}`,
    ),
    query<ByDay<{ visitors: number }>>(
      db,
      sql`SELECT day::text, count(DISTINCT visitor)::int AS visitors
          FROM analytics_visitors v WHERE ${inRange('v')} GROUP BY GROUPING SETS ((day), ())`,
    ),
    // Both percentiles from one sort per day.
    query<ByDay<{ answers: number; p: Array<number | null> | null }>>(
      db,
      sql`SELECT day::text, count(*)::int AS answers,
            percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY first_token_ms) AS p
          FROM analytics_answers a WHERE ${inRange('a')} GROUP BY GROUPING SETS ((day), ())`,
    ),
    query<
      ByDay<{ model_uuid: string | null; model_name: string; answers: number; input: number; output: number }>
    >(
      db,
      sql`SELECT day::text, model_uuid, model_name, count(*)::int AS answers,
            sum(input_tokens)::float8 AS input, sum(output_tokens)::float8 AS output
          FROM analytics_answers a WHERE ${inRange('a')}
          GROUP BY GROUPING SETS ((day, model_uuid, model_name), (model_uuid, model_name))
          ORDER BY sum(input_tokens) + sum(output_tokens) DESC, model_name`,
    ),
    query<ByDay<{ median: number | null }>>(
      db,
      sql`SELECT day::text, percentile_cont(0.5) WITHIN GROUP (ORDER BY wait_ms) AS median
          FROM analytics_human_replies h WHERE ${inRange('h')} GROUP BY GROUPING SETS ((day), ())`,
    ),
    // The owner's prices today: a price entered later applies to the tokens already spent.
    query<{ uuid: string; input: number | null; output: number | null }>(
      db,
      sql`SELECT m.uuid, m.input_price_per_million AS input, m.output_price_per_million AS output
          FROM provider_models m JOIN model_providers p ON p.id = m.provider_id
          WHERE p.owner_id = ${application.ownerId}
            AND (m.input_price_per_million IS NOT NULL OR m.output_price_per_million IS NOT NULL)`,
    ),
    // Grouped and ranked first, then the few winners' wording (the latest) read by id: no ordered
    // aggregate over every row of the range. Grouped by the tokens as one string (words, no spaces
    // in them): hashing text is cheaper than comparing arrays (~40% on PGlite).
    query<{ key: string; question: string; count: number }>(
      db,
      sql`SELECT g.key, q.question, g.count
          FROM (SELECT array_to_string(tokens, ' ') AS key, count(*)::int AS count, max(id) AS latest
                FROM analytics_questions q WHERE ${inRange('q')}
                GROUP BY 1 ORDER BY count(*) DESC, max(id) DESC LIMIT ${QUESTION_KEYS}) g
          JOIN analytics_questions q ON q.id = g.latest
          ORDER BY g.count DESC, g.latest DESC`,
    ),
    query<{ item_uuid: string; title: string; citations: number }>(
      db,
      sql`SELECT g.item_uuid, c.title, g.citations
          FROM (SELECT item_uuid, sum(citations)::int AS citations, max(day) AS latest
                FROM analytics_citations c WHERE ${inRange('c')}
                GROUP BY item_uuid ORDER BY sum(citations) DESC, item_uuid LIMIT ${ANALYTICS_TOP}) g
          JOIN analytics_citations c
            ON c.application_id = ${application.id} AND c.day = g.latest AND c.item_uuid = g.item_uuid
          ORDER BY g.citations DESC, g.item_uuid`,
    ),
  ]);

  const priceOf = new Map<string, Price>(prices.map((p) => [p.uuid, { input: p.input, output: p.output }]));
  const usage = (row: (typeof models)[number]): TModelUsage => {
    const price = row.model_uuid ? priceOf.get(row.model_uuid) : undefined;
    return {
      model_uuid: row.model_uuid,
      model_name: row.model_name,
      answers: row.answers,
      input_tokens: row.input,
      output_tokens: row.output,
      estimated_cost: price
        ? (row.input * (price.input ?? 0) + row.output * (price.output ?? 0)) / 1_000_000
        : null,
    };
  };
  const byDay = <T extends { day: string | null }>(rows: T[]) => new Map(rows.map((r) => [r.day, r]));
  const counterOf = byDay(counters);
  const visitorsOf = byDay(visitors);
  const answersOf = byDay(answers);
  const repliesOf = byDay(replies);
  const modelsOf = new Map<string | null, TModelUsage[]>();
  for (const row of models) modelsOf.set(row.day, [...(modelsOf.get(row.day) ?? []), usage(row)]);

  const countsOf = (day: string | null): TAnalyticsTotals => {
    const dayModels = modelsOf.get(day) ?? [];
    const costs = dayModels.flatMap((m) => (m.estimated_cost === null ? [] : [m.estimated_cost]));
    const sum = (name: string) =>
      day === null
        ? counters.reduce((total, row) => total + Number(row[name]), 0)
        : Number(counterOf.get(day)?.[name] ?? 0);
    return {
      conversations: sum('conversations'),
      messages: sum('messages'),
      visitors: visitorsOf.get(day)?.visitors ?? 0,
      rated_up: sum('rated_up'),
      rated_down: sum('rated_down'),
      not_covered: sum('not_covered'),
      handoffs_requested: sum('handoffs_requested'),
      handoffs_answered: sum('handoffs_answered'),
      human_reply_median_ms: roundedMs(repliesOf.get(day)?.median),
      answers: answersOf.get(day)?.answers ?? 0,
      first_token_p50_ms: roundedMs(answersOf.get(day)?.p?.[0]),
      first_token_p95_ms: roundedMs(answersOf.get(day)?.p?.[1]),
      models: dayModels,
      estimated_cost: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
    };
  };

  const days = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push({ day, ...countsOf(day) });
  return {
    from,
    to,
    time_zone: timeZone,
    days,
    totals: countsOf(null),
    top_questions: topQuestions(questions),
    top_cited: cited,
  };
}

/**
 * The range's questions grouped as the inbox groups them: wordings with the same words were counted
 * together in SQL; similar word sets are merged here, the most asked first, each into the group of
 * the most similar more asked one.
 */
function topQuestions(rows: Array<{ key: string; question: string; count: number }>) {
  const groups: Array<{ tokens: string[]; question: string; count: number }> = [];
  for (const { key, question, count } of rows) {
    const tokens = key ? key.split(' ') : [];
    const group = mostSimilar(tokens, groups);
    if (group) group.count += count;
    else groups.push({ tokens, question, count });
  }
  return groups
    .sort((a, b) => b.count - a.count)
    .slice(0, ANALYTICS_TOP)
    .map(({ question, count }) => ({ question, count }));
}
