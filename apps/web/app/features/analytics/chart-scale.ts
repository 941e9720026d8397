/**
 * The day chart's geometry, kept apart from React so it can be tested: the y scale and its ticks,
 * which days get a label, and the lines and points of a series.
 */

/** The y axis: from 0 to `top`, with a tick at every `step`. */
export interface YScale {
  top: number;
  ticks: number[];
}

/**
 * A y axis from 0 reaching at least `max`, with about `count` ticks at a "nice" step (1, 2 or 5
 * times a power of ten). Every series is a count or milliseconds, so the step is at least 1 (no
 * "0.25 conversations"); a range of zeros (or no values) still has an axis, 0 to 1.
 */
export function yScale(max: number, count = 4): YScale {
  const high = Number.isFinite(max) && max > 0 ? max : 1;
  const rough = Math.max(1, high / count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  const top = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let i = 0; i * step <= top; i++) ticks.push(i * step);
  return { top, ticks };
}

/** The largest value of any series (0 when none has one). */
export function maxOf(series: ReadonlyArray<ReadonlyArray<number | null>>): number {
  let max = 0;
  for (const values of series) for (const v of values) if (v !== null && v > max) max = v;
  return max;
}

/**
 * Which days get a date under the axis: at most `most`, evenly spaced, always the last (today, or
 * the range's end) and counting back from it, so the labels do not shift as the range grows.
 */
export function labelledDays(count: number, most: number): number[] {
  if (count <= 0) return [];
  const every = Math.max(1, Math.ceil(count / Math.max(1, most)));
  const days: number[] = [];
  for (let i = count - 1; i >= 0; i -= every) days.unshift(i);
  return days;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "Mar 2" for "2026-03-02": read from the string itself, so the server and every browser write
 * the same date whatever their time zone (a day is the owner's, already decided by the API).
 */
export function dayLabel(day: string): string {
  const [, month, date] = day.split('-');
  return `${MONTHS[Number(month) - 1] ?? month} ${Number(date)}`;
}

export interface Point {
  x: number;
  y: number;
  /** The day's index in the range. */
  index: number;
  value: number;
}

/**
 * A series' points (one per day with a value) and its lines: an SVG path of the runs of
 * consecutive days with a value. A day without one (null) breaks the line; a day alone between
 * two gaps is only its point.
 */
export function seriesShape(
  values: ReadonlyArray<number | null>,
  x: (index: number) => number,
  y: (value: number) => number,
): { points: Point[]; path: string } {
  const points: Point[] = [];
  let path = '';
  let previous = false;
  values.forEach((value, index) => {
    if (value === null) {
      previous = false;
      return;
    }
    const point = { x: round(x(index)), y: round(y(value)), index, value };
    points.push(point);
    path += `${previous ? 'L' : 'M'}${point.x} ${point.y}`;
    previous = true;
  });
  return { points, path };
}

/** Two decimals are finer than a pixel; shorter paths in the HTML. */
const round = (n: number) => Math.round(n * 100) / 100;

/** The least room between two days for each to get its point (a point is 6 px wide). */
export const POINT_SPACE = 8;

/**
 * The points drawn as dots: every one when the days are at least `POINT_SPACE` apart; when closer
 * (a long range, a narrow screen) only a day alone between gaps, which has no line to show it. The
 * pointer's readout names any day's values either way.
 */
export function markedPoints(
  values: ReadonlyArray<number | null>,
  points: Point[],
  spacing: number,
): Point[] {
  if (spacing >= POINT_SPACE) return points;
  return points.filter(
    (p) => (values[p.index - 1] ?? null) === null && (values[p.index + 1] ?? null) === null,
  );
}

/** The day nearest to a pointer at `x`, on days `spacing` apart from `first`'s x. */
export function nearestDay(x: number, first: number, spacing: number, count: number): number {
  if (count <= 1 || spacing <= 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.round((x - first) / spacing)));
}
