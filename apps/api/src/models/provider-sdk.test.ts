import { describe, expect, it } from 'vitest';
import type { ProviderConnection } from './load-provider-model.ts';
import { languageModelFor } from './provider-sdk.ts';

const connection = (over: Partial<ProviderConnection> = {}): ProviderConnection => ({
  uuid: 'c6a2d0e4-1f0b-4c8e-9d61-0e6b3c2a5f10',
  kind: 'openai_compatible',
  name: 'Local',
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKey: 'sk-one',
  addresses: { localInstance: true, allowed: [] },
  ...over,
});

describe('languageModelFor', () => {
  it('gives the same model object for the same connection and name, a new one when any of them changes', async () => {
    const addresses = { localInstance: true, allowed: [] };
    const first = await languageModelFor(connection({ addresses }), 'chat');
    expect(await languageModelFor(connection({ addresses }), 'chat')).toBe(first);
    expect(await languageModelFor(connection({ addresses, apiKey: 'sk-two' }), 'chat')).not.toBe(first);
    expect(
      await languageModelFor(connection({ addresses, baseUrl: 'http://127.0.0.1:8/v1' }), 'chat'),
    ).not.toBe(first);
    expect(await languageModelFor(connection({ addresses }), 'other')).not.toBe(first);
    // Another server configuration (its address policy) never shares a model object.
    expect(await languageModelFor(connection(), 'chat')).not.toBe(first);
  });
});
