import { WEBHOOK_EXCERPT_BYTES } from '@cairn/contracts/webhooks';
import { BlockedAddressError, guardedRequest, type Resolver, resolvePublicAddress } from '../../lib/ssrf.ts';

export interface PostResult {
  statusCode: number;
  /** The raw `Retry-After` header, when the receiver sent one. */
  retryAfter: string | undefined;
  /** At most 1 KB of the answer, as text without control characters. */
  excerpt: string;
}

/** An attempt that got no HTTP answer, with a reason the owner understands. */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export interface PostOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  /** ALLOW_PRIVATE_URLS: loopback receivers are allowed (tests, self-hosters); nothing else. */
  allowLoopback: boolean;
  userAgent: string;
  resolver?: Resolver;
}

/**
 * POSTs a delivery through the same SSRF guard as knowledge URLs (DESIGN §8): the host is resolved
 * once, every address checked, and the socket connects to the checked address, so a second DNS
 * answer (rebinding) is never used. Redirects are answers like any other: never followed (a 3xx
 * is a failed attempt). The whole exchange is bounded by `timeoutMs`; only the first KB of the
 * answer is read.
 */
export async function postWebhook(rawUrl: string, body: string, options: PostOptions): Promise<PostResult> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new DeliveryError('Not a valid web address.');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw new DeliveryError('Only http:// and https:// addresses without credentials are called.');
  }
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const payload = Buffer.from(body, 'utf8');
  const check = (target: URL) =>
    resolvePublicAddress(target.hostname, { allowLoopback: options.allowLoopback }, options.resolver).catch(
      (error: unknown) => {
        if (error instanceof BlockedAddressError) throw new DeliveryError(error.message);
        throw new DeliveryError(`${target.hostname} could not be found.`);
      },
    );
  const req = await guardedRequest(url, check, {
    method: 'POST',
    signal: deadline,
    headers: {
      ...options.headers,
      'content-type': 'application/json',
      'content-length': String(payload.length),
      'user-agent': options.userAgent,
    },
  });
  return new Promise<PostResult>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => reject(networkError(error, url, options.timeoutMs));
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        response.destroy();
        const raw = Buffer.concat(chunks).subarray(0, WEBHOOK_EXCERPT_BYTES);
        resolve({
          statusCode: response.statusCode ?? 0,
          retryAfter: headerValue(response.headers['retry-after']),
          excerpt: sanitizeExcerpt(raw),
        });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= WEBHOOK_EXCERPT_BYTES) done();
      });
      response.on('end', done);
      response.on('error', (error: NodeJS.ErrnoException) => {
        // The status line arrived: a body cut short still counts as the receiver's answer.
        if (deadline.aborted || size > 0) done();
        else fail(error);
      });
    });
    req.on('error', fail);
    req.end(payload);
  });
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Valid UTF-8 text, control characters (other than tab and line ends) dropped, at most 1 KB. */
export function sanitizeExcerpt(raw: Buffer): string {
  // A multi-byte character cut at the 1 KB edge decodes to U+FFFD: drop that last one.
  const text = raw.toString('utf8').replace(/\ufffd$/, '');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '');
}

function networkError(error: NodeJS.ErrnoException, url: URL, timeoutMs: number): DeliveryError {
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR')
    return new DeliveryError(`No answer within ${timeoutMs / 1000} seconds.`);
  if (error.code === 'ECONNREFUSED') return new DeliveryError(`${url.host} refused the connection.`);
  if (error.code === 'ECONNRESET') return new DeliveryError(`${url.host} closed the connection.`);
  if (error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT'))
    return new DeliveryError(`${url.host} has an invalid TLS certificate.`);
  return new DeliveryError(`Could not connect to ${url.host}.`);
}
