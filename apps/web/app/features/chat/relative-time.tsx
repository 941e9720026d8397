import { useEffect, useState } from 'react';

/** Calendar months from `a` to `b`, with the fraction of the month in progress (dayjs's `diff(…, 'month', true)`). */
function monthDiff(a: Date, b: Date): number {
  if (a.getDate() < b.getDate()) return -monthDiff(b, a);
  const whole = (b.getFullYear() - a.getFullYear()) * 12 + (b.getMonth() - a.getMonth());
  const addMonths = (n: number) => {
    const d = new Date(a);
    const day = d.getDate();
    d.setDate(1);
    d.setMonth(d.getMonth() + n);
    d.setDate(Math.min(day, new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate()));
    return d.getTime();
  };
  const anchor = addMonths(whole);
  const before = b.getTime() - anchor < 0;
  const anchor2 = addMonths(whole + (before ? -1 : 1));
  return -(whole + (b.getTime() - anchor) / (before ? anchor - anchor2 : anchor2 - anchor)) || 0;
}

/**
 * dayjs's relativeTime in English, without dayjs (issue 13). Its thresholds are the
 * specification's (§9): 44 s, 89 s, 44 min, 89 min, 21 h, 35 h, 25 d, 45 d, 10 mo, 17 mo.
 */
const THRESHOLDS: {
  key: string;
  max?: number;
  unit?: 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year';
}[] = [
  { key: 's', max: 44, unit: 'second' },
  { key: 'm', max: 89 },
  { key: 'mm', max: 44, unit: 'minute' },
  { key: 'h', max: 89 },
  { key: 'hh', max: 21, unit: 'hour' },
  { key: 'd', max: 35 },
  { key: 'dd', max: 25, unit: 'day' },
  { key: 'M', max: 45 },
  { key: 'MM', max: 10, unit: 'month' },
  { key: 'y', max: 17 },
  { key: 'yy', unit: 'year' },
];
const WORDS: Record<string, string> = {
  s: 'a few seconds',
  m: 'a minute',
  mm: '%d minutes',
  h: 'an hour',
  hh: '%d hours',
  d: 'a day',
  dd: '%d days',
  M: 'a month',
  MM: '%d months',
  y: 'a year',
  yy: '%d years',
};
const MS = { second: 1e3, minute: 6e4, hour: 36e5, day: 864e5 } as const;

export function relativeFrom(iso: string, now = Date.now()): string {
  const then = new Date(iso);
  const from = new Date(now);
  let result = 0;
  let words = '';
  for (const [i, t] of THRESHOLDS.entries()) {
    if (t.unit) {
      const ms = then.getTime() - from.getTime();
      result =
        t.unit === 'month'
          ? monthDiff(then, from)
          : t.unit === 'year'
            ? monthDiff(then, from) / 12
            : ms / MS[t.unit];
    }
    const abs = Math.round(Math.abs(result));
    if (t.max === undefined || abs <= t.max) {
      const key = abs <= 1 && i > 0 ? THRESHOLDS[i - 1]!.key : t.key;
      words = WORDS[key]!.replace('%d', String(abs));
      break;
    }
  }
  return result > 0 ? `in ${words}` : `${words} ago`;
}

/** How long ago something happened, never "in …": a time ahead of `now` is taken as now. */
export function relativeFromPast(iso: string, now: number): string {
  return relativeFrom(iso, Math.max(now, Date.parse(iso)));
}

/**
 * "a few seconds ago", "5 minutes ago" … of something that happened, kept fresh; the exact date is
 * in the tooltip. The time is read at each render, not only at each tick: a stopped answer's time
 * changes after the component mounted, and an older "now" made it "in a few seconds". Never in the
 * future either (the server's clock may be a little ahead of the browser's), unless it is a time to
 * come (`scheduled`: an expiry, the next attempt), which reads "in 3 months".
 */
export function RelativeTime({
  iso,
  className,
  scheduled = false,
}: {
  iso: string;
  className?: string;
  scheduled?: boolean;
}) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);

  return (
    <time
      dateTime={iso}
      title={new Date(iso).toLocaleString('en')}
      className={className}
      suppressHydrationWarning
    >
      {scheduled ? relativeFrom(iso) : relativeFromPast(iso, Date.now())}
    </time>
  );
}
