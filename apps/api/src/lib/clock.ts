/**
 * Time as a module sees it. Defaults to the real time; tests replace it on the running app (for
 * instance `app.webhooks.clock`) to move through a delay instead of sleeping through it.
 */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
