import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an address may not be fetched, in words a person understands. */
export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

export interface AddressPolicy {
  /** Lets loopback addresses through (ALLOW_PRIVATE_URLS=true, for tests); nothing else. */
  allowLoopback: boolean;
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The ipaddr.js range of an address, with IPv4-mapped / IPv4-compatible IPv6 forms unwrapped
 * (`::ffff:127.0.0.1` is loopback). Decimal, hex and octal IPv4 forms parse too (`2130706433`,
 * `0x7f000001`, `0177.0.0.1`). Returns undefined when the text is not an address.
 */
export function addressRange(address: string): { range: string; normalized: string } | undefined {
  const parsed = parseAddress(address);
  return parsed && { range: parsed.range(), normalized: parsed.toString() };
}

/**
 * An address in any spelling, parsed; IPv4-mapped (`::ffff:a.b.c.d`) and IPv4-compatible
 * (`::a.b.c.d`, which reaches the IPv4 address on some stacks) forms are the IPv4 address they
 * hold. Undefined when the text is not an address.
 */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(bare);
  } catch {
    return undefined;
  }
  if (parsed.kind() === 'ipv6') {
    const parts = (parsed as ipaddr.IPv6).parts;
    if (parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7]! > 1)) {
      return ipaddr.IPv4.parse([parts[6]! >> 8, parts[6]! & 255, parts[7]! >> 8, parts[7]! & 255].join('.'));
    }
  }
  return parsed;
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  linkLocal: 'a link-local address (this includes cloud metadata services)',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved address',
};

/**
 * Throws BlockedAddressError unless the address is a public unicast one. Everything that is not
 * ipaddr.js's `unicast` range is refused — private, loopback, link-local (169.254.169.254, the
 * cloud metadata service), CGNAT (100.64/10, which holds Alibaba's metadata address), multicast,
 * reserved, and IPv6 transition prefixes (NAT64, 6to4, Teredo) that can tunnel to internal IPv4.
 */
export function assertPublicAddress(address: string, policy: AddressPolicy, hostname = address): void {
  const info = addressRange(address);
  if (!info) throw new BlockedAddressError(`${hostname} is not a valid address.`);
  if (info.range === 'unicast') return;
  if (info.range === 'loopback' && policy.allowLoopback) return;
  const what = RANGE_NAMES[info.range] ?? 'an address that is not on the public internet';
  // What a name resolves to is not told (issue 26): it would map the private network for whoever asks.
  const target =
    hostname === address
      ? `${info.normalized} is ${what}`
      : `${hostname} points to an address that is not on the public internet`;
  throw new BlockedAddressError(
    `Blocked address: ${target}. Only public web addresses can be fetched. ${LOCAL_TESTING_HINT}`,
  );
}

/** How a developer testing on one machine lets Cairn reach it. */
export const LOCAL_TESTING_HINT =
  'To reach this machine while testing, start Cairn with ALLOW_PRIVATE_URLS=true.';

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Resolves a host name once and checks every address it resolves to; the caller connects to the
 * returned address, so a second, different DNS answer (rebinding) can never be used.
 */
export async function resolvePublicAddress(
  hostname: string,
  policy: AddressPolicy,
  resolver: Resolver = systemResolver,
): Promise<CheckedAddress> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (addressRange(bare)) {
    assertPublicAddress(bare, policy);
    const normalized = ipaddr.process(bare);
    return { address: normalized.toString(), family: normalized.kind() === 'ipv6' ? 6 : 4 };
  }
  const answers = await resolver(bare);
  if (answers.length === 0) throw new Error(`ENOTFOUND ${bare}`);
  // Refuse if any answer is internal: an attacker's name may mix public and private addresses.
  for (const answer of answers) assertPublicAddress(answer.address, policy, bare);
  const first = answers[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A socket `lookup` that answers every name with the checked address (no second DNS answer). */
export function pinnedLookup(checked: CheckedAddress): LookupFunction {
  return (_hostname, opts, callback) => {
    if (opts.all) callback(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  };
}

/** Request options that carry the address the request was checked for. */
interface PinnedRequestOptions extends http.RequestOptions {
  pinnedAddress: string;
}

/**
 * Kept-alive connections are pooled by host, port, TLS options **and the checked address**: a
 * request reuses a connection only when its own check returned the address that connection was
 * opened to, so a reused connection never reaches an address this request's check did not allow
 * (whatever the policy that opened it). Reuse saves a TCP and TLS handshake per call: for a model
 * provider over the internet, that is one or two round trips before every answer's first token.
 * Idle connections do not keep the process alive (Node unrefs them) and close when the server's
 * `Keep-Alive: timeout` hint says so.
 */
const pinnedName = (name: string, options?: http.ClientRequestArgs) =>
  `${name}:${(options as PinnedRequestOptions | undefined)?.pinnedAddress}`;
class PinnedHttpAgent extends http.Agent {
  override getName(options?: http.ClientRequestArgs): string {
    return pinnedName(super.getName(options), options);
  }
}
class PinnedHttpsAgent extends https.Agent {
  override getName(options?: http.ClientRequestArgs): string {
    return pinnedName(super.getName(options), options);
  }
}
const httpAgent = new PinnedHttpAgent({ keepAlive: true });
const httpsAgent = new PinnedHttpsAgent({ keepAlive: true });

/**
 * The one way Cairn opens a connection to an address it was given (a page to fetch, a webhook, a
 * push endpoint, a model provider): `check` resolves the URL's host once and checks every address
 * it resolves to (`resolvePublicAddress`, or a model provider's own rule), and the socket connects
 * to the address it returns, so a second DNS answer (rebinding) is never used. Whatever `check`
 * throws is thrown before anything is sent; the caller ends the request and reads the answer.
 */
export async function guardedRequest(
  url: URL,
  check: (url: URL) => Promise<CheckedAddress>,
  options: Omit<http.RequestOptions, 'lookup' | 'agent'>,
): Promise<http.ClientRequest> {
  const checked = await check(url);
  const https_ = url.protocol === 'https:';
  const pinned: PinnedRequestOptions = {
    ...options,
    lookup: pinnedLookup(checked),
    agent: https_ ? httpsAgent : httpAgent,
    pinnedAddress: checked.address,
  };
  return (https_ ? https : http).request(url, pinned);
}
