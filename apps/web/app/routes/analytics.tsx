import type { TAnalytics } from '@cairn/contracts/analytics';
import { type ReactNode, useId, useMemo } from 'react';
import { Link, useNavigation, useSearchParams } from 'react-router';
import { ChartColumnIcon } from '../components/icons';
import { LoadErrorAlert } from '../components/load-error-alert';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import { loadAnalytics } from '../features/analytics/analytics.server';
import { type ChartSeries, DayChart } from '../features/analytics/day-chart';
import { formatCost, formatMs } from '../features/analytics/format';
import { RANGE_PRESETS, RangePicker } from '../features/analytics/range-picker';
import { ScrollRegion } from '../features/analytics/scroll-region';
import { apiFor } from '../lib/api.server';
import { formatNumber } from '../lib/format-number';
import type { Route } from './+types/analytics';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'Analytics · Cairn' }];

export async function loader(args: Route.LoaderArgs) {
  return loadAnalytics(apiFor(args), args.params.appId, new URL(args.request.url));
}

/**
 * What the application did over a range of days (issue 20 §3): totals, charts per day and the most
 * asked questions and cited items, all read from the daily rollups (decision 066).
 */
export default function Analytics({ loaderData, params }: Route.ComponentProps) {
  const { analytics, error } = loaderData;
  const { selected } = useNavigationData();
  const [search] = useSearchParams();
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location.pathname.endsWith('/analytics');
  const days = Number(search.get('days') ?? (search.has('from') || search.has('to') ? 0 : 30));
  const active = RANGE_PRESETS.find((preset) => preset === days) ?? null;

  let body: ReactNode;
  if (analytics === null) {
    body = <LoadErrorAlert message={error} />;
  } else if (analytics.totals.conversations === 0 && analytics.totals.messages === 0) {
    body = (
      <EmptyState
        icon={<ChartColumnIcon />}
        title="No conversations in these days"
        description={
          <>
            Questions asked in chats, through the API, the widget or your integrations are counted here day by
            day. Try the assistant in a{' '}
            <Link to={`/applications/${params.appId}/messages/new_chat`} className="text-primary underline">
              new chat
            </Link>{' '}
            or pick a longer range.
          </>
        }
      />
    );
  } else {
    body = <Report analytics={analytics} />;
  }

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Analytics"
        description={
          analytics
            ? `${selected?.name ?? ''} · ${analytics.from} to ${analytics.to} (${analytics.time_zone})`
            : selected?.name
        }
      />
      <RangePicker
        active={active}
        from={analytics?.from ?? search.get('from') ?? ''}
        to={analytics?.to ?? search.get('to') ?? ''}
      />
      <div aria-busy={loading} className={loading ? 'opacity-60 transition-opacity' : undefined}>
        {loading ? (
          <p role="status" className="sr-only">
            Loading the analytics…
          </p>
        ) : null}
        {body}
      </div>
    </div>
  );
}

function Report({ analytics }: { analytics: TAnalytics }) {
  const { totals } = analytics;
  const charts = useMemo(() => chartsOf(analytics), [analytics]);
  return (
    <div className="grid gap-8">
      <section aria-labelledby="totals" className="grid gap-3">
        <h2 id="totals" className="sr-only">
          Totals
        </h2>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Tile label="Conversations" value={formatNumber(totals.conversations)} />
          <Tile label="Messages" value={formatNumber(totals.messages)} />
          <Tile label="Visitors" value={formatNumber(totals.visitors)} />
          <Tile label="Rated good / bad" value={`${totals.rated_up} / ${totals.rated_down}`} />
          <Tile label="Not covered" value={formatNumber(totals.not_covered)} hint="answers" />
          <Tile
            label="Handoffs answered"
            value={`${totals.handoffs_answered} / ${totals.handoffs_requested}`}
            hint={`median wait ${formatMs(totals.human_reply_median_ms)}`}
          />
          <Tile
            label="First token"
            value={formatMs(totals.first_token_p50_ms)}
            hint={`p95 ${formatMs(totals.first_token_p95_ms)}`}
          />
          <Tile
            label="Estimated cost"
            value={formatCost(totals.estimated_cost)}
            hint={totals.estimated_cost === null ? 'enter prices in Models' : undefined}
          />
        </dl>
      </section>
      <section aria-labelledby="per-day" className="grid gap-4">
        <h2 id="per-day" className="text-lg font-semibold">
          Per day
        </h2>
        <div className="grid items-start gap-4 lg:grid-cols-2">
          {charts.map((chart) => (
            <DayChart key={chart.title} days={charts.days} {...chart} />
          ))}
        </div>
      </section>
      <div className="grid gap-8 lg:grid-cols-2">
        <TableSection
          title="Top questions"
          empty="No questions asked."
          head={['Question', 'Asked']}
          rows={analytics.top_questions.map((q) => [q.question, formatNumber(q.count)])}
        />
        <TableSection
          title="Most cited knowledge"
          empty="No answer cited the knowledge."
          head={['Item', 'Citations']}
          rows={analytics.top_cited.map((item) => [item.title, formatNumber(item.citations)])}
        />
      </div>
      <TableSection
        title="Tokens and cost by model"
        empty="No answers in these days."
        head={['Model', 'Answers', 'Input tokens', 'Output tokens', 'Estimated cost']}
        rows={totals.models.map((m) => [
          m.model_name,
          formatNumber(m.answers),
          formatNumber(m.input_tokens),
          formatNumber(m.output_tokens),
          formatCost(m.estimated_cost),
        ])}
        note={
          <>
            Costs are estimated from the prices per million tokens you enter on your{' '}
            <Link to="/settings/models" className="text-primary underline">
              models
            </Link>
            , in your currency.
          </>
        }
      />
    </div>
  );
}

/** The three charts and the days they share, with a sentence each for screen readers. */
function chartsOf(analytics: TAnalytics) {
  const { days, totals } = analytics;
  const column = (pick: (day: TAnalytics['days'][number]) => number | null) => days.map(pick);
  const span = `from ${analytics.from} to ${analytics.to}`;
  const list: Array<{ title: string; series: ChartSeries[]; summary: string }> = [
    {
      title: 'Conversations and messages',
      series: [
        { label: 'Conversations', values: column((d) => d.conversations), color: 1 },
        { label: 'Messages', values: column((d) => d.messages), color: 2 },
      ],
      summary: `${totals.conversations} conversations and ${totals.messages} messages ${span}.`,
    },
    {
      title: 'Ratings and questions not covered',
      series: [
        { label: 'Good answer', values: column((d) => d.rated_up), color: 2 },
        { label: 'Bad answer', values: column((d) => d.rated_down), color: 3 },
        { label: 'Not covered', values: column((d) => d.not_covered), color: 4 },
      ],
      summary: `${totals.rated_up} answers rated good, ${totals.rated_down} rated bad and ${totals.not_covered} not covered by the knowledge ${span}.`,
    },
    {
      title: 'Time to first token (ms)',
      series: [
        { label: 'p50', values: column((d) => d.first_token_p50_ms), color: 1 },
        { label: 'p95', values: column((d) => d.first_token_p95_ms), color: 3 },
      ],
      summary: `Answers started after ${formatMs(totals.first_token_p50_ms)} at the median and ${formatMs(totals.first_token_p95_ms)} at the 95th percentile ${span}.`,
    },
  ];
  return Object.assign(list, { days: days.map((d) => d.day) });
}

function Tile({ label, value, hint }: { label: string; value: string; hint?: string | undefined }) {
  return (
    <div className="grid min-w-0 gap-1 rounded-xl border bg-card p-4">
      <dt className="truncate text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
      {hint ? <dd className="truncate text-xs text-muted-foreground">{hint}</dd> : null}
    </div>
  );
}

function TableSection({
  title,
  head,
  rows,
  empty,
  note,
}: {
  title: string;
  head: string[];
  rows: string[][];
  empty: string;
  note?: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid min-w-0 content-start gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ScrollRegion label={`${title}, table`} className="rounded-xl border">
          <table className="w-full text-sm">
            <thead className="bg-muted/50 text-left">
              <tr>
                {head.map((h, i) => (
                  <th
                    key={h}
                    scope="col"
                    className={i === 0 ? 'px-3 py-2 font-medium' : 'px-3 py-2 text-right font-medium'}
                  >
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.join('\u0000')} className="border-t">
                  {row.map((cell, i) =>
                    i === 0 ? (
                      <th key={head[i]} scope="row" className="px-3 py-2 text-left font-normal break-words">
                        {cell}
                      </th>
                    ) : (
                      <td key={head[i]} className="px-3 py-2 text-right tabular-nums">
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
    </section>
  );
}
