import './analytics.css';
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { formatNumber } from '../../lib/format-number';
import { dayLabel, labelledDays, markedPoints, maxOf, nearestDay, seriesShape, yScale } from './chart-scale';
import { ScrollRegion } from './scroll-region';

const HEIGHT = 220;
/** The server's guess of the chart's width (about a half column at 1280 px); the browser measures. */
const SERVER_WIDTH = 480;
const TOP = 10;
const BOTTOM = 26;
/** Room for half of the last date, centred on the right edge's day. */
const RIGHT = 22;
/** A 12 px digit, about; the y labels are right-aligned against the plot. */
const DIGIT = 7.5;
/** The smallest space between two dates under the axis. */
const DATE_SPACE = 64;

export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  /** Which of the page's chart colours (`--chart-1` … `--chart-4` in analytics.css). */
  color: 1 | 2 | 3 | 4;
}

/**
 * Its container's width in whole pixels, measured after hydration and on every resize; the server
 * (and the hydrating render, which must match it) use `SERVER_WIDTH`.
 */
function useWidth() {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(SERVER_WIDTH);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [box, width] as const;
}

/**
 * A line chart of values per day, an SVG drawn on the server too (in the first paint, and no
 * chart library to load). Its colours are the CSS variables themselves, so a change of colour mode
 * needs no redraw; its text keeps its size at any width (no viewBox scaling), the chart getting
 * fewer dates instead. Screen readers get `summary`; the numbers are there as a table, and a
 * pointer over the chart reads out the nearest day's values (a dot per day only where the days are
 * far enough apart to tell: a year of dots was a blot and a few thousand elements).
 */
export function DayChart({
  title,
  days,
  series,
  summary,
}: {
  title: string;
  days: string[];
  series: ChartSeries[];
  summary: string;
}) {
  const [box, width] = useWidth();
  const [active, setActive] = useState<number | null>(null);
  const y = yScale(maxOf(series.map((s) => s.values)));
  const left = Math.max(28, 10 + DIGIT * formatNumber(y.top).length);
  const plotWidth = Math.max(1, width - left - RIGHT);
  const plotHeight = HEIGHT - TOP - BOTTOM;
  // One day alone sits in the middle.
  const spacing = days.length > 1 ? plotWidth / (days.length - 1) : 0;
  const xOf = (i: number) => left + (days.length > 1 ? i * spacing : plotWidth / 2);
  const yOf = (v: number) => TOP + plotHeight - (v / y.top) * plotHeight;
  // Grid lines on whole pixels, half-way, so a 1 px line is sharp.
  const crisp = (n: number) => Math.round(n) + 0.5;
  const dated = labelledDays(days.length, Math.floor(plotWidth / DATE_SPACE) + 1);

  return (
    <figure className="analytics-chart grid min-w-0 gap-2 rounded-xl border bg-card p-4">
      <figcaption className="font-medium">{title}</figcaption>
      <div ref={box} className="relative min-w-0 overflow-hidden">
        <svg
          role="img"
          aria-label={summary}
          width={width}
          height={HEIGHT}
          className="block touch-pan-y tabular-nums"
          onPointerMove={(event) => {
            const x = event.clientX - event.currentTarget.getBoundingClientRect().left;
            setActive(nearestDay(x, xOf(0), spacing, days.length));
          }}
          onPointerLeave={() => setActive(null)}
        >
          <g stroke="var(--border)" strokeWidth={1}>
            {y.ticks.map((tick) => (
              <line key={tick} x1={left} x2={left + plotWidth} y1={crisp(yOf(tick))} y2={crisp(yOf(tick))} />
            ))}
            {dated.map((i) => (
              <line key={i} x1={crisp(xOf(i))} x2={crisp(xOf(i))} y1={TOP} y2={TOP + plotHeight} />
            ))}
          </g>
          <g fill="var(--muted-foreground)" fontSize={12}>
            {y.ticks.map((tick) => (
              <text key={tick} x={left - 8} y={yOf(tick)} textAnchor="end" dominantBaseline="middle">
                {formatNumber(tick)}
              </text>
            ))}
            {dated.map((i) => (
              <text key={i} x={xOf(i)} y={HEIGHT - 6} textAnchor="middle">
                {dayLabel(days[i] ?? '')}
              </text>
            ))}
          </g>
          {series.map((s) => {
            const shape = seriesShape(s.values, xOf, yOf);
            const colour = `var(--chart-${s.color})`;
            return (
              <g key={s.label}>
                <path d={shape.path} fill="none" stroke={colour} strokeWidth={2} strokeLinejoin="round" />
                <g fill={colour}>
                  {markedPoints(s.values, shape.points, spacing).map((p) => (
                    <circle key={p.index} cx={p.x} cy={p.y} r={3} />
                  ))}
                </g>
              </g>
            );
          })}
          {active !== null ? (
            <g data-chart-guide>
              <line
                x1={crisp(xOf(active))}
                x2={crisp(xOf(active))}
                y1={TOP}
                y2={TOP + plotHeight}
                stroke="var(--muted-foreground)"
                strokeDasharray="3 3"
              />
              {series.map((s) => {
                const value = s.values[active];
                return value === null || value === undefined ? null : (
                  <circle
                    key={s.label}
                    cx={xOf(active)}
                    cy={yOf(value)}
                    r={4}
                    fill={`var(--chart-${s.color})`}
                    stroke="var(--card)"
                    strokeWidth={2}
                  />
                );
              })}
            </g>
          ) : null}
        </svg>
        {active !== null ? (
          <Readout
            day={days[active] ?? ''}
            series={series}
            index={active}
            // Beside the guide, on the side with room.
            style={{
              left: xOf(active),
              transform: xOf(active) > width / 2 ? 'translateX(calc(-100% - 8px))' : 'translateX(8px)',
            }}
          />
        ) : null}
      </div>
      <ul className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-sm">
        {series.map((s) => (
          <li key={s.label} className="flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className="h-0.5 w-4 rounded"
              style={{ background: `var(--chart-${s.color})` }}
            />
            {s.label}
          </li>
        ))}
      </ul>
      <DayTable title={title} days={days} series={series} />
    </figure>
  );
}

/**
 * The pointer's day: its date and each series' value. Hidden from screen readers, which have the
 * summary and the table.
 */
function Readout({
  day,
  series,
  index,
  style,
}: {
  day: string;
  series: ChartSeries[];
  index: number;
  style: CSSProperties;
}) {
  return (
    <div
      data-chart-readout
      aria-hidden="true"
      className="pointer-events-none absolute top-2 rounded-md border bg-popover px-2 py-1 text-popover-foreground text-xs shadow-sm"
      style={style}
    >
      <div className="font-medium">{dayLabel(day)}</div>
      {series.map((s) => {
        const value = s.values[index];
        return (
          <div key={s.label} className="flex items-center gap-1.5 whitespace-nowrap tabular-nums">
            <span className="size-2 rounded-full" style={{ background: `var(--chart-${s.color})` }} />
            {s.label}: {value === null || value === undefined ? '–' : formatNumber(value)}
          </div>
        );
      })}
    </div>
  );
}

/**
 * The chart's numbers as a table, behind "Show as a table": drawn when first opened, not with every
 * page (a year of days is a few thousand cells; decision 105). Opened before hydration, it is
 * drawn as soon as the page hydrates.
 */
function DayTable({ title, days, series }: { title: string; days: string[]; series: ChartSeries[] }) {
  const details = useRef<HTMLDetailsElement>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (details.current?.open) setShown(true);
  }, []);
  return (
    <details
      ref={details}
      className="text-sm"
      onToggle={(event) => {
        if (event.currentTarget.open) setShown(true);
      }}
    >
      <summary className="cursor-pointer text-muted-foreground">Show as a table</summary>
      {shown ? (
        <ScrollRegion label={`${title}, per day`} className="mt-2 max-h-64">
          <table className="w-full text-left tabular-nums">
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Day
                </th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="py-1 pr-3 font-medium">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, i) => (
                <tr key={day} className="border-t">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {day}
                  </th>
                  {series.map((s) => (
                    <td key={s.label} className="py-1 pr-3">
                      {s.values[i] ?? '–'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </details>
  );
}
