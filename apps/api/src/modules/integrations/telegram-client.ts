import type { Api, GrammyError } from 'grammy';
import { AppError, fieldError } from '../../lib/app-error.ts';
import { tryLater } from './answer-text.ts';

type GrammyModule = typeof import('grammy');
let grammy: GrammyModule | undefined;

/**
 * A Bot API client for one bot token (grammY's `Api`, rooted at TELEGRAM_API_URL). grammY (~20 MB
 * resident) is loaded when a Telegram integration is first used, not at every start.
 */
export async function telegramApi(config: { telegramApiUrl: string }, token: string): Promise<Api> {
  grammy ??= await import('grammy');
  return new grammy.Api(token, { apiRoot: config.telegramApiUrl, timeoutSeconds: 60 });
}

/** A refusal by Telegram itself; only a loaded client can have thrown one. */
const isTelegramRefusal = (error: unknown): error is GrammyError =>
  grammy !== undefined && error instanceof grammy.GrammyError;

/** A failure of a Bot API call, in words (kept as the integration's last error). */
export function describeTelegramError(error: unknown): string {
  if (isTelegramRefusal(error)) return `Telegram answered: ${error.description}`;
  return `Telegram could not be reached: ${error instanceof Error ? error.message : String(error)}`;
}

/** Checks a bot token with `getMe`; the bot's id and @username. */
export async function checkTelegramToken(
  config: { telegramApiUrl: string },
  token: string,
): Promise<{ botUserId: string; botName: string }> {
  try {
    const me = await (await telegramApi(config, token)).getMe();
    return { botUserId: String(me.id), botName: me.username ? `@${me.username}` : me.first_name };
  } catch (error) {
    if (isTelegramRefusal(error) && (error.error_code === 401 || error.error_code === 404))
      throw fieldError('bot_token', 'Telegram does not accept this token: copy it again from @BotFather.');
    throw new AppError('unavailable', tryLater(describeTelegramError(error)));
  }
}

/**
 * Whether Telegram can push updates to PUBLIC_URL: only over https, and only to a name the
 * internet can reach. Otherwise Cairn fetches them itself (long polling).
 */
export function telegramModeFor(publicUrl: string): { mode: 'webhook' | 'polling'; reason: string } {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host === '::1' ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    !host.includes('.');
  if (url.protocol !== 'https:')
    return {
      mode: 'polling',
      reason: `PUBLIC_URL (${url.origin}) is not https, and Telegram only sends updates to https addresses, so Cairn fetches them itself (long polling).`,
    };
  if (local)
    return {
      mode: 'polling',
      reason: `PUBLIC_URL (${url.origin}) cannot be reached from the internet, so Cairn fetches updates itself (long polling).`,
    };
  return {
    mode: 'webhook',
    reason: `Telegram sends each update to ${url.origin}, with a secret token Cairn checks.`,
  };
}
