import http from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import {
  type AddressPolicy,
  BlockedAddressError,
  guardedRequest,
  type Resolver,
  resolvePublicAddress,
} from '../lib/ssrf.ts';

export type FetchFailureReason =
  | 'blocked'
  | 'unreachable'
  | 'not_a_page'
  | 'too_large'
  | 'timeout'
  | 'too_many_redirects'
  | 'invalid_url';

/** A fetch that failed for a reason the person who added the URL can act on. */
export class FetchError extends Error {
  constructor(
    readonly reason: FetchFailureReason,
    message: string,
    /** The HTTP status when the server answered with an error (a page gone answers 404 or 410). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface FetchOptions extends AddressPolicy {
  userAgent: string;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Content types accepted as a "page"; anything else fails as `not_a_page`. */
  accept?: (contentType: string) => boolean;
  resolver?: Resolver;
  /** Validators of the copy we hold: sent as If-None-Match / If-Modified-Since, so an unchanged page answers 304. */
  conditional?: { etag: string | null; lastModified: string | null };
}

export interface FetchedPage {
  /** After redirects. */
  url: string;
  contentType: string;
  body: Buffer;
  /** The server answered 304 to a conditional request: `body` is empty, the copy we hold is current. */
  notModified: boolean;
  etag: string | null;
  lastModified: string | null;
}

export const DEFAULT_FETCH_LIMITS = { maxBytes: 10 * 1024 * 1024, timeoutMs: 20_000, maxRedirects: 5 };

const PAGE_TYPES = /^(text\/html|application\/xhtml\+xml|text\/plain|text\/markdown|application\/pdf)$/;
export const isPageType = (contentType: string) => PAGE_TYPES.test(contentType);

/**
 * Fetches a user-given URL safely (DESIGN §6): http/https only; the host is resolved once, every
 * address checked, and the connection made to that checked address (no DNS-rebinding window);
 * every redirect goes through the same check; redirects, size (also after decompression) and
 * total time are capped. One User-Agent that says who we are.
 */
export async function fetchUrl(rawUrl: string, options: FetchOptions): Promise<FetchedPage> {
  const maxBytes = options.maxBytes ?? DEFAULT_FETCH_LIMITS.maxBytes;
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_LIMITS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? DEFAULT_FETCH_LIMITS.maxRedirects;
  const accept = options.accept ?? isPageType;
  const deadline = AbortSignal.timeout(timeoutMs);

  let url = parseHttpUrl(rawUrl);
  for (let redirects = 0; ; redirects++) {
    const response = await request(url, options, deadline, timeoutMs);
    const status = response.statusCode ?? 0;
    const validators = {
      etag: response.headers.etag ?? null,
      lastModified: response.headers['last-modified'] ?? null,
    };
    if (status === 304 && options.conditional) {
      response.resume();
      return {
        url: url.toString(),
        contentType: '',
        body: Buffer.alloc(0),
        notModified: true,
        ...validators,
      };
    }
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (redirects >= maxRedirects) {
        throw new FetchError('too_many_redirects', `Unreachable: more than ${maxRedirects} redirects.`);
      }
      url = parseHttpUrl(new URL(response.headers.location, url).toString());
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      const text = http.STATUS_CODES[status] ?? 'error';
      throw new FetchError(
        'unreachable',
        `Unreachable: the server answered HTTP ${status} (${text}).`,
        status,
      );
    }
    const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!accept(contentType)) {
      response.resume();
      throw new FetchError(
        'not_a_page',
        `Not a web page: the address returned ${contentType || 'content of an unknown type'}.`,
      );
    }
    const declared = Number(response.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      response.destroy();
      throw tooLarge(maxBytes);
    }
    const body = await readCapped(decoded(response), maxBytes, deadline, timeoutMs);
    const charset = /charset=([^;]+)/i.exec(response.headers['content-type'] ?? '')?.[1];
    return {
      url: url.toString(),
      contentType: charset ? `${contentType}; charset=${charset}` : contentType,
      body,
      notModified: false,
      ...validators,
    };
  }
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('invalid_url', 'Not a valid web address.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError(
      'invalid_url',
      `Only http:// and https:// addresses can be fetched, not ${url.protocol}//.`,
    );
  }
  if (url.username || url.password) {
    throw new FetchError('invalid_url', 'Addresses with a user name or password are not fetched.');
  }
  return url;
}

/** One GET (each redirect is another), to the address checked for this URL's host. */
async function request(
  url: URL,
  options: FetchOptions,
  deadline: AbortSignal,
  timeoutMs: number,
): Promise<http.IncomingMessage> {
  const check = (target: URL) =>
    resolvePublicAddress(target.hostname, options, options.resolver).catch((error: unknown) => {
      if (error instanceof BlockedAddressError) throw new FetchError('blocked', error.message);
      throw new FetchError('unreachable', `Unreachable: ${target.hostname} could not be found.`);
    });
  const req = await guardedRequest(url, check, {
    method: 'GET',
    signal: deadline,
    headers: {
      'user-agent': options.userAgent,
      accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.1',
      'accept-encoding': 'gzip, deflate, br',
      ...(options.conditional?.etag && { 'if-none-match': options.conditional.etag }),
      ...(options.conditional?.lastModified && { 'if-modified-since': options.conditional.lastModified }),
    },
  });
  return new Promise((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', (error: NodeJS.ErrnoException) => reject(networkError(error, url, timeoutMs)));
    req.end();
  });
}

function networkError(error: NodeJS.ErrnoException, url: URL, timeoutMs: number): FetchError {
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ABORT_ERR') {
    return new FetchError(
      'timeout',
      `Unreachable: ${url.host} did not answer within ${timeoutMs / 1000} seconds.`,
    );
  }
  if (error.code === 'ECONNREFUSED')
    return new FetchError('unreachable', `Unreachable: ${url.host} refused the connection.`);
  if (error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT')) {
    return new FetchError('unreachable', `Unreachable: ${url.host} has an invalid TLS certificate.`);
  }
  return new FetchError('unreachable', `Unreachable: could not connect to ${url.host}.`);
}

function decoded(response: http.IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return response.pipe(zlib.createInflate());
  if (encoding === 'br') return response.pipe(zlib.createBrotliDecompress());
  return response;
}

const tooLarge = (maxBytes: number) =>
  new FetchError('too_large', `Too large: the page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);

async function readCapped(stream: Readable, maxBytes: number, deadline: AbortSignal, timeoutMs: number) {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      if (deadline.aborted)
        throw new FetchError(
          'timeout',
          `Unreachable: the page did not arrive within ${timeoutMs / 1000} seconds.`,
        );
      total += (chunk as Buffer).length;
      if (total > maxBytes) {
        stream.destroy();
        throw tooLarge(maxBytes);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof FetchError) throw error;
    if (deadline.aborted)
      throw new FetchError(
        'timeout',
        `Unreachable: the page did not arrive within ${timeoutMs / 1000} seconds.`,
      );
    throw new FetchError('unreachable', 'Unreachable: the connection broke while reading the page.');
  }
  return Buffer.concat(chunks);
}
