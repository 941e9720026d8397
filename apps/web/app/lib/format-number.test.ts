import { describe, expect, it } from 'vitest';
import { formatCents, formatNumber } from './format-number';

describe('formatNumber', () => {
  it('writes English thousands separators whatever the locale, as toLocaleString("en") did', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 1_234_567, -4200, 1.5]) {
      expect(formatNumber(n)).toBe(n.toLocaleString('en'));
    }
    expect(formatNumber(12_345)).toBe('12,345');
  });

  it('writes costs with exactly two decimals', () => {
    expect(formatCents(1234.5)).toBe('1,234.50');
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(0.016)).toBe('0.02');
  });
});
