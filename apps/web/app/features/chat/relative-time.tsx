import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import { useEffect, useState } from 'react';

// dayjs's default thresholds are the specification's (§9): 44 s, 89 s, 44 min, 89 min, 21 h, 35 h, 25 d, 45 d, 10 mo, 17 mo.
dayjs.extend(relativeTime);

export const relativeFrom = (iso: string, now = Date.now()) => dayjs(iso).from(dayjs(now));

/** "a few seconds ago", "5 minutes ago" … kept fresh; the exact date is in the tooltip. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time
      dateTime={iso}
      title={new Date(iso).toLocaleString('en')}
      className={className}
      suppressHydrationWarning
    >
      {relativeFrom(iso, now)}
    </time>
  );
}
