/** Kept while other branches import the clock from here; `lib/clock.ts` is its home. */
export { type Clock, systemClock } from '../../lib/clock.ts';
