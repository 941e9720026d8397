import dns from 'node:dns/promises';
import type { TProviderKind } from '@cairn/contracts/model-providers';
import ipaddr from 'ipaddr.js';

/**
 * Provider base URLs are user input, but local model servers (Ollama, LM Studio, vLLM …) live on
 * localhost and private networks, so those are allowed (docs/decisions/ "provider URLs"). What is
 * refused: schemes other than http/https, credentials inside the URL, and addresses no model
 * server lives on but cloud metadata services do (link-local 169.254.0.0/16, fe80::/10) or that
 * are not a host at all (unspecified, multicast, broadcast). Redirects are never followed.
 */
export const DEFAULT_BASE_URLS: Record<TProviderKind, string | undefined> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  ollama: 'http://localhost:11434',
  openai_compatible: undefined,
};

const REFUSED_RANGES = new Set(['linkLocal', 'unspecified', 'multicast', 'broadcast', 'reserved']);

export class ProviderUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUrlError';
  }
}

/** The canonical form stored: no trailing slash, no query or fragment. Throws ProviderUrlError. */
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) assertAddressAllowed(host);
  return url.toString().replace(/\/+$/, '');
}

function assertAddressAllowed(address: string): void {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (REFUSED_RANGES.has(parsed.range())) {
    throw new ProviderUrlError(`The address ${address} is not allowed for a model provider.`);
  }
}

/** The OpenAI-compatible API root of a provider: Ollama serves it under `/v1`. */
export function sdkBaseUrl(kind: TProviderKind, baseUrl: string): string {
  if (kind === 'ollama' && !/\/v1$/.test(baseUrl)) return `${baseUrl}/v1`;
  return baseUrl;
}

/**
 * `fetch` for provider calls: resolves the host first and refuses the addresses above (so a
 * hostname pointing at a metadata service is caught too), and never follows redirects.
 */
export const providerFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [host]
    : (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  for (const address of addresses) assertAddressAllowed(address);
  return fetch(input, { ...init, redirect: 'manual' });
};
