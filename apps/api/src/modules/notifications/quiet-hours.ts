import type { TQuietHours } from '@cairn/contracts/notifications';

const DAY = 1440;

/** Minutes since local midnight of `at` in `timeZone`. */
export function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When the quiet hours around `now` end, or null when `now` is outside them. `start` > `end` spans
 * midnight (22:00–07:00); equal times mean no quiet hours. The end is found by walking the wall
 * clock: a first guess of the minutes left, then corrected by what the local clock reads there, so
 * a DST change inside the quiet hours moves the end by the hour the clock jumped, not the instant.
 */
export function quietHoursEnd(now: Date, quiet: TQuietHours): Date | null {
  const start = toMinutes(quiet.start);
  const end = toMinutes(quiet.end);
  if (start === end) return null;
  const m = localMinutes(now, quiet.time_zone);
  const inside = start < end ? m >= start && m < end : m >= start || m < end;
  if (!inside) return null;
  const minuteStart = Math.floor(now.getTime() / 60_000) * 60_000;
  let t = minuteStart + ((end - m + DAY) % DAY) * 60_000;
  for (let i = 0; i < 3; i++) {
    const local = localMinutes(new Date(t), quiet.time_zone);
    // The signed distance on the clock face, in (-720, 720].
    const diff = ((end - local + DAY + DAY / 2) % DAY) - DAY / 2;
    if (diff === 0) break;
    t += diff * 60_000;
  }
  return new Date(Math.max(t, now.getTime() + 60_000));
}
