/** Time as a service sees it; tests replace it on the running app to move through delays. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
