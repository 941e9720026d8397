import { describe, expect, it } from 'vitest';
import { quietHoursEnd } from './quiet-hours.ts';

const end = (iso: string, start: string, stop: string, time_zone: string) =>
  quietHoursEnd(new Date(iso), { start, end: stop, time_zone, urgent_handoff: false })?.toISOString() ?? null;

describe('quiet hours', () => {
  it('across midnight: before midnight, after midnight, and outside', () => {
    // Paris in winter is UTC+1: 22:00–07:00 local is 21:00–06:00 UTC.
    expect(end('2026-01-10T22:30:00Z', '22:00', '07:00', 'Europe/Paris')).toBe('2026-01-11T06:00:00.000Z');
    expect(end('2026-01-11T02:15:00Z', '22:00', '07:00', 'Europe/Paris')).toBe('2026-01-11T06:00:00.000Z');
    expect(end('2026-01-11T06:00:00Z', '22:00', '07:00', 'Europe/Paris')).toBeNull();
    expect(end('2026-01-10T20:59:00Z', '22:00', '07:00', 'Europe/Paris')).toBeNull();
  });

  it('within one day, and equal times mean none', () => {
    expect(end('2026-06-01T12:30:00Z', '12:00', '14:00', 'UTC')).toBe('2026-06-01T14:00:00.000Z');
    expect(end('2026-06-01T14:00:00Z', '12:00', '14:00', 'UTC')).toBeNull();
    expect(end('2026-06-01T12:30:00Z', '09:00', '09:00', 'UTC')).toBeNull();
  });

  it('through a DST change the end is the local wall-clock time', () => {
    // Europe/Paris springs forward on 2026-03-29 at 02:00 → 03:00: 07:00 local is 05:00 UTC that morning.
    expect(end('2026-03-28T22:00:00Z', '22:00', '07:00', 'Europe/Paris')).toBe('2026-03-29T05:00:00.000Z');
    // New York falls back on 2026-11-01: 07:00 EST is 12:00 UTC (it was 11:00 UTC the day before).
    expect(end('2026-11-01T03:00:00Z', '22:00', '07:00', 'America/New_York')).toBe(
      '2026-11-01T12:00:00.000Z',
    );
  });
});
