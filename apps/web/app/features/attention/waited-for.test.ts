import { describe, expect, it } from 'vitest';
import { waitedFor } from './waited-for';

describe('waitedFor', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();
  it('says how long in short words', () => {
    expect(waitedFor(ago(20_000), now)).toBe('less than a minute');
    expect(waitedFor(ago(12 * 60_000 + 59_000), now)).toBe('12 min');
    expect(waitedFor(ago(60 * 60_000), now)).toBe('1 h');
    expect(waitedFor(ago(125 * 60_000), now)).toBe('2 h 5 min');
    expect(waitedFor(ago(30 * 3600_000), now)).toBe('1 day');
    expect(waitedFor(ago(80 * 3600_000), now)).toBe('3 days');
    // A clock a little ahead of the server's.
    expect(waitedFor(new Date(now + 5_000).toISOString(), now)).toBe('less than a minute');
  });
});
