/** At most this many requests to one site at a time, from this process… */
export const SITE_CONCURRENCY = 2;
/** …each started at least this long after the previous one to the same site. */
export const SITE_DELAY_MS = 250;

interface SiteSlot {
  running: number;
  lastStart: number;
  waiting: Array<() => void>;
}

const sites = new Map<string, SiteSlot>();

/**
 * Runs a request to a site politely: a whole-site import queues hundreds of pages of one origin,
 * and the ingestion workers and re-sync checks would otherwise hit it all at once. Per process
 * (every process holds its own slots); the origin is the unit a site's owner sees as "my server".
 */
export async function politely<T>(url: string, run: () => Promise<T>): Promise<T> {
  const origin = new URL(url).origin;
  let slot = sites.get(origin);
  if (!slot) {
    slot = { running: 0, lastStart: 0, waiting: [] };
    sites.set(origin, slot);
  }
  while (slot.running >= SITE_CONCURRENCY) await new Promise<void>((resolve) => slot.waiting.push(resolve));
  slot.running++;
  const wait = slot.lastStart + SITE_DELAY_MS - Date.now();
  slot.lastStart = Math.max(Date.now(), slot.lastStart + SITE_DELAY_MS);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  try {
    return await run();
  } finally {
    slot.running--;
    slot.waiting.shift()?.();
    if (slot.running === 0 && slot.waiting.length === 0) sites.delete(origin);
  }
}
