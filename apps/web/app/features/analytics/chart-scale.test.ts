import { describe, expect, it } from 'vitest';
import {
  dayLabel,
  labelledDays,
  markedPoints,
  maxOf,
  nearestDay,
  POINT_SPACE,
  seriesShape,
  yScale,
} from './chart-scale';

describe('yScale', () => {
  it('reads from 0 to a nice top with about four ticks at 1, 2 or 5 times a power of ten', () => {
    expect(yScale(9)).toEqual({ top: 10, ticks: [0, 5, 10] });
    expect(yScale(10)).toEqual({ top: 10, ticks: [0, 5, 10] });
    expect(yScale(11)).toEqual({ top: 15, ticks: [0, 5, 10, 15] });
    expect(yScale(37)).toEqual({ top: 40, ticks: [0, 10, 20, 30, 40] });
    expect(yScale(1234)).toEqual({ top: 1500, ticks: [0, 500, 1000, 1500] });
    expect(yScale(80_000)).toEqual({ top: 80_000, ticks: [0, 20_000, 40_000, 60_000, 80_000] });
  });

  it('never steps by less than 1: counts and milliseconds are whole', () => {
    expect(yScale(1)).toEqual({ top: 1, ticks: [0, 1] });
    expect(yScale(3)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    expect(yScale(0.4)).toEqual({ top: 1, ticks: [0, 1] });
  });

  it('gives a range of zeros (or nothing) an axis from 0 to 1', () => {
    expect(yScale(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(yScale(Number.NaN)).toEqual({ top: 1, ticks: [0, 1] });
    expect(yScale(-5)).toEqual({ top: 1, ticks: [0, 1] });
  });

  it('always reaches the maximum, in at most six ticks', () => {
    for (let max = 1; max <= 5000; max += 7) {
      const { top, ticks } = yScale(max);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(ticks.at(-1)).toBe(top);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('maxOf', () => {
  it('is the largest value of any series, nulls skipped, 0 without values', () => {
    expect(
      maxOf([
        [1, null, 4],
        [null, 7],
      ]),
    ).toBe(7);
    expect(maxOf([[null], []])).toBe(0);
    expect(maxOf([])).toBe(0);
  });
});

describe('labelledDays', () => {
  it('labels every day when there is room', () => {
    expect(labelledDays(5, 8)).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps the last day and counts back evenly, never more labels than asked', () => {
    expect(labelledDays(30, 5)).toEqual([5, 11, 17, 23, 29]);
    expect(labelledDays(7, 3)).toEqual([0, 3, 6]);
    for (let count = 1; count <= 400; count++) {
      for (const most of [1, 4, 7]) {
        const days = labelledDays(count, most);
        expect(days.at(-1)).toBe(count - 1);
        expect(days.length).toBeLessThanOrEqual(most);
      }
    }
  });

  it('has nothing to label without days, and one label at least when asked for none', () => {
    expect(labelledDays(0, 5)).toEqual([]);
    expect(labelledDays(3, 0)).toEqual([2]);
  });
});

describe('dayLabel', () => {
  it('writes the date of the string, whatever the time zone', () => {
    expect(dayLabel('2026-03-02')).toBe('Mar 2');
    expect(dayLabel('2025-12-31')).toBe('Dec 31');
    expect(dayLabel('2026-01-01')).toBe('Jan 1');
  });
});

describe('seriesShape', () => {
  const x = (i: number) => i * 10;
  const y = (v: number) => 100 - v;

  it('draws one line through days that all have a value, a point on each', () => {
    const shape = seriesShape([1, 2, 3], x, y);
    expect(shape.path).toBe('M0 99L10 98L20 97');
    expect(shape.points).toEqual([
      { x: 0, y: 99, index: 0, value: 1 },
      { x: 10, y: 98, index: 1, value: 2 },
      { x: 20, y: 97, index: 2, value: 3 },
    ]);
  });

  it('breaks the line at a day without a value, and leaves no point there', () => {
    const shape = seriesShape([1, 2, null, 4, 5], x, y);
    expect(shape.path).toBe('M0 99L10 98M30 96L40 95');
    expect(shape.points.map((p) => p.index)).toEqual([0, 1, 3, 4]);
  });

  it('shows a day alone between gaps as a point only (a move, no line)', () => {
    const shape = seriesShape([null, 3, null], x, y);
    expect(shape.path).toBe('M10 97');
    expect(shape.points).toEqual([{ x: 10, y: 97, index: 1, value: 3 }]);
  });

  it('draws zeros on the axis and nothing for a series without values', () => {
    expect(seriesShape([0, 0], x, y).path).toBe('M0 100L10 100');
    expect(seriesShape([null, null], x, y)).toEqual({ points: [], path: '' });
  });

  it('rounds coordinates to two decimals', () => {
    const shape = seriesShape(
      [1],
      () => 1 / 3,
      () => 2 / 3,
    );
    expect(shape.path).toBe('M0.33 0.67');
  });
});

describe('markedPoints', () => {
  const x = (i: number) => i * 10;
  const y = (v: number) => 100 - v;

  it('marks every day when there is room for a dot each', () => {
    const values = [1, 2, null, 4];
    const { points } = seriesShape(values, x, y);
    expect(markedPoints(values, points, POINT_SPACE).map((p) => p.index)).toEqual([0, 1, 3]);
  });

  it('closer than that, marks only the days alone between gaps (they have no line)', () => {
    const values = [1, 2, null, 4, null, 6];
    const { points } = seriesShape(values, x, y);
    expect(markedPoints(values, points, POINT_SPACE - 1).map((p) => p.index)).toEqual([3, 5]);
    expect(markedPoints([7], seriesShape([7], x, y).points, 0).map((p) => p.index)).toEqual([0]);
  });
});

describe('nearestDay', () => {
  it('rounds the pointer to the nearest day and keeps it inside the range', () => {
    expect(nearestDay(100, 100, 10, 5)).toBe(0);
    expect(nearestDay(114, 100, 10, 5)).toBe(1);
    expect(nearestDay(116, 100, 10, 5)).toBe(2);
    expect(nearestDay(40, 100, 10, 5)).toBe(0);
    expect(nearestDay(900, 100, 10, 5)).toBe(4);
    expect(nearestDay(300, 100, 0, 1)).toBe(0);
  });
});
