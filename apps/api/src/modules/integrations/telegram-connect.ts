import { randomBytes } from 'node:crypto';
import type { Ctx } from '../../lib/ctx.ts';
import { openSecret } from './integration-secrets.ts';
import { describeTelegramError, telegramApi, telegramModeFor } from './telegram-client.ts';

export const telegramUpdatesUrl = (publicUrl: string, uuid: string) =>
  `${publicUrl}/api/integrations/telegram/${uuid}/updates/`;

export interface TelegramConnection {
  mode: 'webhook' | 'polling';
  modeReason: string;
  /** The webhook's `secret_token` (in clear: the caller seals it); null when polling. */
  webhookSecret: string | null;
}

/**
 * Points the bot's updates at Cairn: `setWebhook` with a fresh secret token when PUBLIC_URL is
 * reachable from the internet; otherwise `deleteWebhook` (Telegram refuses `getUpdates` while a
 * webhook is set) and long polling. A webhook Telegram refuses falls back to polling, saying why.
 */
export async function connectTelegram(app: Ctx, uuid: string, token: string): Promise<TelegramConnection> {
  const api = await telegramApi(app.config, token);
  const choice = telegramModeFor(app.config.publicUrl);
  let reason = choice.reason;
  if (choice.mode === 'webhook') {
    const secret = randomBytes(32).toString('base64url');
    try {
      await api.setWebhook(telegramUpdatesUrl(app.config.publicUrl, uuid), {
        secret_token: secret,
        allowed_updates: ['message'],
      });
      return { mode: 'webhook', modeReason: reason, webhookSecret: secret };
    } catch (error) {
      reason = `Telegram refused the webhook address (${describeTelegramError(error)}), so Cairn fetches updates itself (long polling).`;
    }
  }
  await api.deleteWebhook({ drop_pending_updates: false }).catch((err: unknown) => {
    app.log.warn({ err, integration: uuid }, 'telegram deleteWebhook failed');
  });
  return { mode: 'polling', modeReason: reason, webhookSecret: null };
}

/** Stops Telegram pushing to Cairn (the integration is deleted or its token replaced); best effort. */
export async function disconnectTelegram(app: Ctx, uuid: string, token: string) {
  await (await telegramApi(app.config, token))
    .deleteWebhook()
    .catch((err: unknown) => app.log.warn({ err, integration: uuid }, 'telegram deleteWebhook failed'));
}

/**
 * Takes back the webhooks of deleted bots (an application or account deleted): else Telegram keeps
 * pushing to a URL that is gone, and the bot cannot be connected elsewhere by polling. Never throws:
 * what was deleted stays deleted.
 */
export async function unsetTelegramWebhooks(
  app: Ctx,
  bots: { uuid: string; botTokenCiphertext: string }[],
): Promise<void> {
  for (const bot of bots) {
    try {
      await disconnectTelegram(
        app,
        bot.uuid,
        openSecret(app.secrets, bot.uuid, 'bot_token', bot.botTokenCiphertext),
      );
    } catch (err) {
      app.log.warn({ err, integration: bot.uuid }, 'could not unset a deleted bot’s Telegram webhook');
    }
  }
}
