import type { Logger, LogLevel, WebClient } from '@slack/web-api';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, fieldError } from '../../lib/app-error.ts';
import { tryLater } from './answer-text.ts';

type SlackModule = typeof import('@slack/web-api');
let slackModule: SlackModule | undefined;

/** @slack/web-api (~15 MB resident) is loaded when a Slack integration is first used, not at every start. */
async function loadSlack(): Promise<SlackModule> {
  slackModule ??= await import('@slack/web-api');
  return slackModule;
}

/** The library's logger, written to ours (it would print to the console otherwise). */
function slackLogger(log: FastifyBaseLogger, initial: LogLevel): Logger {
  let level = initial;
  return {
    debug: () => {},
    info: () => {},
    warn: (...msg: unknown[]) => log.warn({ slack: msg }, 'slack client'),
    error: (...msg: unknown[]) => log.error({ slack: msg }, 'slack client'),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

/**
 * A Slack Web API client for one bot token. No retries of its own: an answer that cannot be posted
 * is recorded as the integration's last error, and the reply job is retried by the queue.
 */
export async function slackClient(
  config: { slackApiUrl: string },
  token: string,
  log: FastifyBaseLogger,
): Promise<WebClient> {
  const slack = await loadSlack();
  return new slack.WebClient(token, {
    slackApiUrl: `${config.slackApiUrl}/`,
    retryConfig: { retries: 0 },
    timeout: 15_000,
    logger: slackLogger(log, slack.LogLevel.WARN),
  });
}

/** A refusal by Slack itself (`{ok: false, error}`); only a loaded client can have thrown one. */
const isPlatformError = (error: unknown) =>
  slackModule !== undefined && error instanceof slackModule.WebAPIPlatformError;

/** The code of a refusal by Slack itself (`missing_scope`, `channel_not_found`…); null for any other failure. */
export const slackErrorCode = (error: unknown): string | null =>
  isPlatformError(error) ? (error as { data: { error: string } }).data.error : null;

/** Slack's refusals of a token, as a person reads them. */
const TOKEN_ERRORS: Record<string, string> = {
  invalid_auth: 'Slack does not accept this token (invalid_auth).',
  not_authed: 'Slack does not accept this token (not_authed).',
  account_inactive: 'This token belongs to a deleted app or a deactivated workspace.',
  token_revoked: 'This token was revoked: reinstall the app and copy the new one.',
  token_expired: 'This token has expired.',
};

/** A failure of a Slack call, in words (kept as the integration's last error). */
export function describeSlackError(error: unknown): string {
  const code = slackErrorCode(error);
  if (code !== null) return TOKEN_ERRORS[code] ?? `Slack answered: ${code}.`;
  return `Slack could not be reached: ${error instanceof Error ? error.message : String(error)}`;
}

/** Checks a bot token with `auth.test`; the bot's user id and name. */
export async function checkSlackToken(
  config: { slackApiUrl: string },
  token: string,
  log: FastifyBaseLogger,
): Promise<{ botUserId: string; botName: string }> {
  try {
    const result = await (await slackClient(config, token, log)).auth.test();
    if (!result.user_id)
      throw fieldError('bot_token', 'This is not a bot token: Slack names no bot user for it.');
    return { botUserId: result.user_id, botName: result.user ?? 'Slack bot' };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isPlatformError(error)) throw fieldError('bot_token', describeSlackError(error));
    throw new AppError('unavailable', tryLater(describeSlackError(error)));
  }
}
