import { randomUUID } from 'node:crypto';
import type { TTelegramUpdate } from '@cairn/contracts/integrations';
import { integrations } from '@cairn/db/schema';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Api } from 'grammy';
import type { Ctx } from '../../lib/ctx.ts';
import { openSecret } from './integration-secrets.ts';
import { markIntegration } from './send-reply.ts';
import { describeTelegramError, telegramApi } from './telegram-client.ts';
import { takeTelegramUpdate } from './telegram-update.ts';

export interface PollerSettings {
  /** `getUpdates` long-poll timeout: Telegram holds the request this long when nothing comes. */
  timeoutSeconds: number;
  /** How often unclaimed polling integrations are looked for (new ones, or a dead process's). */
  scanIntervalMs: number;
  /** A claim lasts this long unless renewed (every poll renews it). */
  leaseSeconds: number;
}
export const DEFAULT_POLLER_SETTINGS: PollerSettings = {
  timeoutSeconds: 25,
  scanIntervalMs: 10_000,
  leaseSeconds: 90,
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Long polling for Telegram bots whose updates cannot be pushed to Cairn. One poller per bot
 * across every process: a process claims a bot by a lease on its row (taken when free or expired,
 * renewed at every poll), so a second process leaves it alone and a dead process's bots are taken
 * over once their lease runs out. The offset of the next update is kept in the row: a restart
 * neither repeats nor skips updates. Stopped (and its leases released) when the app closes.
 */
export function createTelegramPoller(app: Ctx, settings: PollerSettings) {
  const lease = randomUUID();
  const running = new Map<number, Promise<void>>();
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let scanning: Promise<void> = Promise.resolve();

  const leaseUntil = sql`now() + make_interval(secs => ${settings.leaseSeconds})`;

  async function claim() {
    return app.db
      .update(integrations)
      .set({ pollerLease: lease, pollerLeaseUntil: leaseUntil })
      .where(
        and(
          eq(integrations.kind, 'telegram'),
          eq(integrations.mode, 'polling'),
          or(
            isNull(integrations.pollerLease),
            lt(integrations.pollerLeaseUntil, sql`now()`),
            eq(integrations.pollerLease, lease),
          ),
        ),
      )
      .returning({ id: integrations.id });
  }

  /** The bot's row while this process holds it (renewing the lease); undefined once it is not ours. */
  async function renew(id: number) {
    const [row] = await app.db
      .update(integrations)
      .set({ pollerLeaseUntil: leaseUntil })
      .where(
        and(eq(integrations.id, id), eq(integrations.pollerLease, lease), eq(integrations.mode, 'polling')),
      )
      .returning();
    return row;
  }

  async function poll(id: number) {
    let failures = 0;
    while (!stop.signal.aborted) {
      const row = await renew(id);
      if (!row) return; // deleted, switched to a webhook, or taken over after a lost lease
      const token = openSecret(app.secrets, row.uuid, 'bot_token', row.botTokenCiphertext);
      let updates: TTelegramUpdate[];
      try {
        updates = (await (
          await telegramApi(app.config, token)
        ).getUpdates(
          { offset: row.pollOffset, timeout: settings.timeoutSeconds, allowed_updates: ['message'] },
          // grammY types its signal with the abort-controller shim; node-fetch takes the native one.
          stop.signal as unknown as Parameters<Api['getUpdates']>[1],
        )) as TTelegramUpdate[];
      } catch (error) {
        if (stop.signal.aborted) return;
        failures++;
        await markIntegration(app, id, describeTelegramError(error));
        await sleep(Math.min(60_000, 1000 * 2 ** Math.min(failures, 6)), stop.signal);
        continue;
      }
      // Only a poll failure is cleared here: a reply's failure stays until a reply succeeds.
      if (failures) await markIntegration(app, id, null);
      failures = 0;
      for (const update of updates) {
        await takeTelegramUpdate(app, row, update);
        await app.db
          .update(integrations)
          .set({ pollOffset: update.update_id + 1 })
          .where(eq(integrations.id, id));
      }
    }
  }

  function start(id: number) {
    if (running.has(id)) return;
    const done = poll(id)
      .catch((err: unknown) => app.log.error({ err, integration: id }, 'telegram polling failed'))
      .finally(() => running.delete(id));
    running.set(id, done);
  }

  function scan() {
    if (stop.signal.aborted) return scanning;
    scanning = scanning
      .then(async () => {
        for (const { id } of await claim()) start(id);
      })
      .catch((err: unknown) => app.log.error({ err }, 'telegram poller scan failed'));
    return scanning;
  }

  return {
    /** Claims what is free now and every `scanIntervalMs` after. */
    start() {
      const loop = () => {
        timer = setTimeout(async () => {
          await scan();
          if (!stop.signal.aborted) loop();
        }, settings.scanIntervalMs);
        timer.unref();
      };
      void scan().then(loop);
    },
    /** A bot was just connected for polling: claim it without waiting for the next scan. */
    wake: () => void scan(),
    async close() {
      stop.abort();
      clearTimeout(timer);
      await scanning;
      await Promise.all(running.values());
      await app.db
        .update(integrations)
        .set({ pollerLease: null, pollerLeaseUntil: null })
        .where(eq(integrations.pollerLease, lease));
    },
  };
}
