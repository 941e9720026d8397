import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from '../config.ts';
import { prettyLogStream } from './log-format.ts';

/** Pino's options: readable lines for a terminal, JSON lines for everything else (collectors). */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  out: NodeJS.WriteStream = process.stdout,
): FastifyServerOptions['logger'] {
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && out.isTTY === true);
  const base = { level: config.logLevel, hooks: { logMethod: demoteListeningLines } };
  if (!pretty) return base;
  // NO_COLOR (no-color.org) turns colours off; a pipe never gets them.
  return { ...base, stream: prettyLogStream(out, { color: out.isTTY === true && !process.env.NO_COLOR }) };
}

/**
 * Fastify logs "Server listening at …" once per network interface; our start line already says
 * where Cairn is, so those go to debug and a start prints two lines (address, e-mails).
 */
function demoteListeningLines(
  this: import('pino').Logger,
  args: Parameters<import('pino').LogFn>,
  method: import('pino').LogFn,
  level: number,
) {
  const [first] = args;
  if (
    level === this.levels.values.info &&
    typeof first === 'string' &&
    first.startsWith('Server listening at ')
  ) {
    this.debug(first);
    return;
  }
  method.apply(this, args);
}

/** Where e-mails go, for the start line: the outbox directory or the SMTP server, never its credentials. */
export function mailDestination(config: Pick<Config, 'smtpUrl' | 'dataDir'>): string {
  if (!config.smtpUrl) return `.eml files in ${config.dataDir}/outbox/`;
  try {
    const url = new URL(config.smtpUrl);
    const port = url.port || (url.protocol === 'smtps:' ? '465' : '587');
    return `SMTP server ${url.protocol}//${url.hostname}:${port}`;
  } catch {
    return 'the SMTP server of SMTP_URL';
  }
}

/** A request that takes this long is logged whatever its status. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Fastify's request log lines, replaced: nothing when a request starts, and one line when it
 * ends — at debug unless it failed on our side (5xx: error), was slow (warn) or hit a rate limit
 * (429: info, a sign of abuse or a misbehaving client). Other 4xx are the API answering bad input
 * as documented: debug. Web pages (hijacked replies) end here too.
 */
export class RequestLogController extends LogController {
  /** `slowMs`: the slow-request threshold (a test passes a short one rather than wait a second). */
  constructor(private readonly slowMs = SLOW_REQUEST_MS) {
    super();
  }

  override incomingRequest() {}

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime);
    const slow = ms >= this.slowMs;
    const level = status >= 500 ? 'error' : slow ? 'warn' : status === 429 ? 'info' : 'debug';
    const url = request.url.split('?')[0];
    request.log[level](
      { http: { method: request.method, url, statusCode: status, ms } },
      `${request.method} ${url} ${status} ${ms} ms${slow ? ' (slow)' : ''}`,
    );
  }

  override routeNotFound() {}
}
