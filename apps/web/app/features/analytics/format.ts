/** How the analytics page writes its durations and costs (its counts: `formatNumber`). */
import { formatCents } from '../../lib/format-number';

/** A duration: "850 ms", "2.4 s", "3 min", "1.5 h"; a dash without one. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** An estimated cost in the owner's currency (never named): cents, or more digits below one cent. */
export function formatCost(cost: number | null): string {
  if (cost === null) return '–';
  if (cost > 0 && cost < 0.01) return cost.toPrecision(2);
  return formatCents(cost);
}
