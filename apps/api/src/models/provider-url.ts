import dns from 'node:dns/promises';
import { Readable } from 'node:stream';
import type { TProviderKind } from '@cairn/contracts/model-providers';
import ipaddr from 'ipaddr.js';
import { type CheckedAddress, guardedRequest, parseAddress, type Resolver } from '../lib/ssrf.ts';

/**
 * Provider base URLs are user input that the server calls (docs/decisions/056-provider-private-
 * addresses.md, which replaces 011). On a local install (PUBLIC_URL on loopback or a private
 * network) local model servers on localhost and private networks are allowed, as before; on an
 * instance others reach, only public addresses are, plus what the operator lists in
 * PROVIDER_PRIVATE_HOSTS. Addresses where no model server lives but metadata services do
 * (link-local, `100.100.100.200`, `fd00:ec2::254`) and addresses that are not a host at all
 * (unspecified, multicast, broadcast, reserved, IPv6 transition prefixes that embed an IPv4
 * address) are refused everywhere unless listed. Checked when the URL is saved and at every
 * connection, which goes to the address that was checked. Redirects are never followed.
 */
export const DEFAULT_BASE_URLS: Record<TProviderKind, string | undefined> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  ollama: 'http://localhost:11434',
  openai_compatible: undefined,
};

export const PRIVATE_HOSTS_VARIABLE = 'PROVIDER_PRIVATE_HOSTS';

/** One entry of PROVIDER_PRIVATE_HOSTS: an address or network, or a host name; any port unless given. */
export type AllowedHost =
  | { kind: 'network'; network: [ipaddr.IPv4 | ipaddr.IPv6, number]; port?: number | undefined }
  | { kind: 'name'; name: string; port?: number | undefined };

export interface ProviderAddressPolicy {
  /** PUBLIC_URL is on loopback or a private network: local model servers are allowed. */
  localInstance: boolean;
  /** PROVIDER_PRIVATE_HOSTS. */
  allowed: AllowedHost[];
  /** DNS for host names (tests answer with what they need). */
  resolver?: Resolver | undefined;
}

/** Where a local install's model servers live. */
const LOCAL_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);
/** Cloud metadata services outside the link-local range (Alibaba Cloud; AWS over IPv6). */
const METADATA_ADDRESSES = new Set(['100.100.100.200', 'fd00:ec2::254']);

export class ProviderUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUrlError';
  }
}

/**
 * A provider could not be reached: no connection, no such host, or an address it may not use. One
 * message for all of them, so that a base URL cannot be used to tell open ports from closed,
 * filtered or refused ones. `detail` is for the server's log only.
 */
export class ProviderUnreachableError extends Error {
  constructor(
    readonly hint: string,
    readonly detail: string,
  ) {
    super('Could not reach the model provider.');
    this.name = 'ProviderUnreachableError';
  }
}

/** PROVIDER_PRIVATE_HOSTS → entries; throws an Error naming the first bad entry. */
export function parsePrivateHosts(value: string): AllowedHost[] {
  return value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      const bad = () =>
        new Error(`"${entry}" is not an address, network (10.0.0.0/8), host name or host:port`);
      const [, host, portText] = /^(\[[^\]]+\]|[^:]+|[^[\]]*:[^[\]]*)(?::(\d{1,5}))?$/.exec(entry) ?? [];
      // A bare IPv6 address has colons of its own: it takes no port (write [::1]:11434 for one).
      const bareV6 =
        !entry.startsWith('[') && entry.includes(':') && ipaddr.IPv6.isValid(entry.split('/')[0]!);
      const text = bareV6 ? entry : host?.replace(/^\[|\]$/g, '');
      const port = bareV6 || portText === undefined ? undefined : Number(portText);
      if (!text || (port !== undefined && (port < 1 || port > 65535))) throw bad();
      if (text.includes('/')) {
        try {
          return { kind: 'network', network: ipaddr.parseCIDR(text), port } satisfies AllowedHost;
        } catch {
          throw bad();
        }
      }
      const address = parseAddress(text);
      if (address) {
        return {
          kind: 'network',
          network: [address, address.kind() === 'ipv4' ? 32 : 128],
          port,
        } satisfies AllowedHost;
      }
      if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(text)) throw bad();
      return { kind: 'name', name: text.toLowerCase().replace(/\.$/, ''), port } satisfies AllowedHost;
    });
}

/** True when PUBLIC_URL's host is loopback, a private network, or a name only a local network has. */
export function isLocalInstance(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname.toLowerCase().replace(/\.$/, '');
  const address = parseAddress(host);
  if (address) return LOCAL_RANGES.has(address.range()) || address.range() === 'linkLocal';
  return (
    !host.includes('.') ||
    ['.localhost', '.local', '.lan', '.internal', '.home.arpa'].some((suffix) => host.endsWith(suffix))
  );
}

/**
 * The canonical form stored: no trailing slash, no query or fragment. Throws ProviderUrlError.
 * The host is checked separately (`checkProviderHost`), since a name must be resolved.
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new ProviderUrlError('Enter a full URL, e.g. http://localhost:11434 or https://api.example.com/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderUrlError('Only http:// and https:// URLs are allowed.');
  }
  if (url.username || url.password) {
    throw new ProviderUrlError('Put the API key in the key field, not in the URL.');
  }
  if (url.search || url.hash) throw new ProviderUrlError('The URL must not have a query or a fragment.');
  return url.toString().replace(/\/+$/, '');
}

const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** Whether a provider may be reached at this address (and port) under the policy. */
function addressAllowed(
  address: ipaddr.IPv4 | ipaddr.IPv6,
  port: number,
  policy: ProviderAddressPolicy,
): boolean {
  const listed = policy.allowed.some(
    (rule) =>
      rule.kind === 'network' &&
      (rule.port === undefined || rule.port === port) &&
      address.kind() === rule.network[0].kind() &&
      address.match(rule.network),
  );
  if (listed) return true;
  if (METADATA_ADDRESSES.has(address.toString())) return false;
  const range = address.range();
  return range === 'unicast' || (policy.localInstance && LOCAL_RANGES.has(range));
}

function nameListed(url: URL, policy: ProviderAddressPolicy): boolean {
  const name = url.hostname.toLowerCase().replace(/\.$/, '');
  const port = portOf(url);
  return policy.allowed.some(
    (rule) => rule.kind === 'name' && rule.name === name && (rule.port === undefined || rule.port === port),
  );
}

/** `PROVIDER_PRIVATE_HOSTS=<host>:<port>` for this URL, as the operator would write it. */
function exampleEntry(url: URL): string {
  return `${PRIVATE_HOSTS_VARIABLE}=${url.hostname}:${portOf(url)}`;
}

/**
 * Refuses (ProviderUrlError) a base URL whose host is, or resolves to, an address the policy does
 * not allow. A name that does not resolve now is accepted: it is checked again at every connection.
 * The message never names what a name resolved to.
 */
export async function checkProviderHost(baseUrl: string, policy: ProviderAddressPolicy): Promise<void> {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowHint = `The operator of this server can allow it with ${PRIVATE_HOSTS_VARIABLE} (for example ${exampleEntry(url)}).`;
  const literal = parseAddress(host);
  if (literal) {
    if (!addressAllowed(literal, portOf(url), policy)) {
      throw new ProviderUrlError(
        `${url.hostname} is not a public internet address, and model providers on this server may only use those. ${allowHint}`,
      );
    }
    return;
  }
  if (nameListed(url, policy)) return;
  const answers = await Promise.race([
    (policy.resolver ?? systemResolver)(host).catch(() => []),
    // A name whose DNS does not answer soon is judged at connection time instead.
    new Promise<[]>((resolve) => setTimeout(resolve, SAVE_LOOKUP_MS, []).unref()),
  ]);
  const refused = answers.some((answer) => {
    const address = parseAddress(answer.address);
    return !address || !addressAllowed(address, portOf(url), policy);
  });
  if (refused) {
    throw new ProviderUrlError(
      `${url.hostname} points to an address that is not on the public internet, and model providers on this server may only use those. ${allowHint}`,
    );
  }
}

/** How long saving a base URL waits for its name to resolve. */
const SAVE_LOOKUP_MS = 3_000;

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** The OpenAI-compatible API root of a provider: Ollama serves it under `/v1`. */
export function sdkBaseUrl(kind: TProviderKind, baseUrl: string): string {
  if (kind === 'ollama' && !/\/v1$/.test(baseUrl)) return `${baseUrl}/v1`;
  return baseUrl;
}

/**
 * `fetch` for provider calls under a policy: the host is resolved once, every address it resolves
 * to checked, and the connection made to the checked address (no second DNS answer can be used).
 * Redirects are answers, never followed. Everything that keeps a request from getting an answer —
 * a refused address, no such host, a closed port, no connection before the caller's deadline —
 * is one ProviderUnreachableError. Answers stream (`Response.body`), for chat.
 */
export function providerFetchFor(policy: ProviderAddressPolicy): typeof fetch {
  const hint = policy.localInstance
    ? 'Check that it is running and that this server can reach it.'
    : `Check that it is running and that this server can reach it; a provider on a private network must also be allowed by the operator (${PRIVATE_HOSTS_VARIABLE}).`;
  const unreachable = (detail: string) => new ProviderUnreachableError(hint, detail);
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const check = (target: URL) =>
      checkedAddress(target, policy).catch((error: unknown) => {
        throw unreachable(error instanceof Error ? error.message : String(error));
      });
    const req = await guardedRequest(url, check, {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      signal: init?.signal ?? undefined,
    });
    return new Promise<Response>((resolve, reject) => {
      let connected = false;
      req.on('response', (res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
            headers.append(name, one);
        }
        const status = res.statusCode ?? 502;
        // A Response refuses a body with these statuses.
        const empty = status === 204 || status === 205 || status === 304 || request.method === 'HEAD';
        if (empty) res.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status,
            statusText: res.statusMessage ?? '',
            headers,
          }),
        );
      });
      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        // Before a connection every failure looks the same (closed, filtered, refused); after it,
        // a timeout is the provider's slowness and keeps its own error.
        reject(connected ? error : unreachable(`${error.code ?? error.name}: ${error.message}`));
      });
      req.end(body);
    });
  };
}

/** The address to connect to: the literal, or the first of what the name resolves to; all checked. */
async function checkedAddress(url: URL, policy: ProviderAddressPolicy): Promise<CheckedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = portOf(url);
  const literal = parseAddress(host);
  const answers = literal
    ? [{ address: literal.toString(), family: literal.kind() === 'ipv6' ? 6 : 4 }]
    : await (policy.resolver ?? systemResolver)(host);
  if (answers.length === 0) throw new Error(`no address for ${host}`);
  const listedName = !literal && nameListed(url, policy);
  for (const answer of answers) {
    const address = parseAddress(answer.address);
    if (!address || (!listedName && !addressAllowed(address, port, policy))) {
      throw new Error(`${host} → ${answer.address}: not allowed for model providers`);
    }
  }
  const first = parseAddress(answers[0]!.address)!;
  return { address: first.toString(), family: first.kind() === 'ipv6' ? 6 : 4 };
}
