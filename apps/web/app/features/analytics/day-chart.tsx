import 'uplot/dist/uPlot.min.css';
import './analytics.css';
import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { ScrollRegion } from './scroll-region';

const HEIGHT = 220;

export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  /** Which of the page's chart colours (`--chart-1` … `--chart-4` in analytics.css). */
  color: 1 | 2 | 3 | 4;
}

/** A day's x value: seconds since the epoch of its UTC midnight, shown as that date whatever the browser's zone. */
const xOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/**
 * Bumps when the colour mode changes (the mode menu writes `data-mode` on <html>; "system" follows
 * the OS), so a chart drawn on a canvas picks up the new CSS colours.
 */
function useThemeVersion() {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-mode', 'data-theme'],
    });
    const dark = window.matchMedia('(prefers-color-scheme: dark)');
    dark.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      dark.removeEventListener('change', bump);
    };
  }, []);
  return version;
}

/**
 * A line chart of values per day, drawn with uPlot (loaded with this page only), its colours read
 * from CSS variables and its width following its container. The canvas is described for screen
 * readers by `summary`, and the numbers are there as a table for whoever wants to read them.
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
  const box = useRef<HTMLDivElement>(null);
  const theme = useThemeVersion();

  // biome-ignore lint/correctness/useExhaustiveDependencies: colours are read from CSS when drawing, so a new colour mode redraws
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let chart: uPlot | undefined;
    let resize: ResizeObserver | undefined;
    let cancelled = false;
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      const css = getComputedStyle(el);
      const color = (name: string) => css.getPropertyValue(name).trim();
      const axis = {
        stroke: color('--muted-foreground'),
        grid: { stroke: color('--border') },
        ticks: { stroke: color('--border') },
      };
      chart = new UPlot(
        {
          width: el.clientWidth,
          height: HEIGHT,
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          cursor: { drag: { x: false, y: false } },
          legend: { live: false },
          // Counts and times read from zero; an empty range still has an axis.
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
          axes: [axis, { ...axis, size: 48 }],
          series: [
            {},
            ...series.map((s) => ({
              label: s.label,
              stroke: color(`--chart-${s.color}`),
              width: 2,
              // Always drawn: a day alone between days without a value is a point, not a line.
              points: { show: true, size: 6, fill: color(`--chart-${s.color}`) },
            })),
          ],
        },
        [days.map(xOf), ...series.map((s) => s.values)],
        el,
      );
      resize = new ResizeObserver(() => chart?.setSize({ width: el.clientWidth, height: HEIGHT }));
      resize.observe(el);
    });
    return () => {
      cancelled = true;
      resize?.disconnect();
      chart?.destroy();
    };
  }, [days, series, theme]);

  return (
    <figure className="analytics-chart grid min-w-0 gap-2 rounded-xl border bg-card p-4">
      <figcaption className="font-medium">{title}</figcaption>
      <div ref={box} role="img" aria-label={summary} className="min-h-[260px] min-w-0" />
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">Show as a table</summary>
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
      </details>
    </figure>
  );
}
