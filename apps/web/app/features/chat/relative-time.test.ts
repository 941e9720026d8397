import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import { describe, expect, it } from 'vitest';
import { relativeFrom, relativeFromPast } from './relative-time';

dayjs.extend(relativeTime);

describe('relativeFrom', () => {
  it('says what dayjs says, at every threshold', () => {
    const now = new Date('2025-03-31T12:00:00Z').getTime();
    const seconds = [0, 5, 44, 45, 89, 90, 150, 44 * 60, 45 * 60, 89 * 60, 90 * 60, 5 * 3600, 21 * 3600];
    const hours = [22, 35, 36, 48, 24 * 10, 24 * 25, 24 * 26, 24 * 45, 24 * 46, 24 * 70, 24 * 300, 24 * 320];
    const days = [400, 500, 530, 548, 600, 800, 2000];
    const offsets = [
      ...seconds.map((s) => s * 1e3),
      ...hours.map((h) => h * 36e5),
      ...days.map((d) => d * 864e5),
    ];
    for (const offset of offsets) {
      for (const sign of [-1, 1]) {
        const iso = new Date(now + sign * offset).toISOString();
        expect(relativeFrom(iso, now), `${sign * offset} ms`).toBe(dayjs(iso).from(dayjs(now)));
      }
    }
  });
});

describe('relativeFromPast', () => {
  it('never puts what happened in the future (a stopped answer, a server clock ahead)', () => {
    const now = new Date('2025-03-31T12:00:00Z').getTime();
    expect(relativeFromPast(new Date(now + 20_000).toISOString(), now)).toBe('a few seconds ago');
    expect(relativeFromPast(new Date(now - 5 * 60_000).toISOString(), now)).toBe('5 minutes ago');
  });
});
