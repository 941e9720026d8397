import { KEY_REQUIRED_KINDS, type TProviderKind } from '@cairn/contracts/model-providers';
import { fieldError } from '../../lib/app-error.ts';
import {
  checkProviderHost,
  DEFAULT_BASE_URLS,
  normalizeBaseUrl,
  type ProviderAddressPolicy,
  ProviderUrlError,
} from '../../models/provider-url.ts';

/** The base URL to store for a provider: the given one or the kind's default, checked (decision 056). */
export async function baseUrlFor(
  kind: TProviderKind,
  input: string | undefined,
  policy: ProviderAddressPolicy,
): Promise<string> {
  const given = input?.trim() || DEFAULT_BASE_URLS[kind];
  if (!given) throw fieldError('base_url', 'Required for an OpenAI-compatible endpoint');
  try {
    const baseUrl = normalizeBaseUrl(given);
    await checkProviderHost(baseUrl, policy);
    return baseUrl;
  } catch (error) {
    if (error instanceof ProviderUrlError) throw fieldError('base_url', error.message);
    throw error;
  }
}

export function assertKeyPresent(kind: TProviderKind, key: string | null | undefined): void {
  if (KEY_REQUIRED_KINDS.includes(kind) && !key) throw fieldError('api_key', 'Required');
}

/** What is shown of a key: its last 4 characters (all of a very short key would be too much). */
export const last4 = (key: string) => (key.length >= 8 ? key.slice(-4) : '');
