import type { ProviderConnection } from './load-provider-model.ts';
import { fromStatus, toModelProviderError } from './provider-errors.ts';
import { providerFetchFor, sdkBaseUrl } from './provider-url.ts';

export const LIST_TIMEOUT_MS = 10_000;
const ANTHROPIC_VERSION = '2023-06-01';

/**
 * The model ids a provider lists, which is also how a connection is tested: OpenAI-compatible
 * `GET /models`, Ollama's `GET /api/tags` (it lists embedding models too; falls back to `/v1/models`),
 * Anthropic's `GET /v1/models`. Failures are ModelProviderErrors with human messages.
 */
export async function listRemoteModels(
  connection: ProviderConnection,
  timeoutMs = LIST_TIMEOUT_MS,
): Promise<string[]> {
  const ctx = { provider: connection.name, baseUrl: connection.baseUrl, timeoutMs };
  const providerFetch = providerFetchFor(connection.addresses);
  const get = async (url: string, headers: Record<string, string>) => {
    try {
      return await providerFetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw toModelProviderError(error, ctx);
    }
  };
  const readJson = async (res: Response): Promise<unknown> => {
    if (!res.ok) {
      await res.body?.cancel();
      throw fromStatus(res.status, ctx, `the model provider "${connection.name}"`);
    }
    try {
      return await res.json();
    } catch (error) {
      throw toModelProviderError(
        new Error('its answer is not JSON; check the base URL', { cause: error }),
        ctx,
      );
    }
  };

  if (connection.kind === 'anthropic') {
    const res = await get(`${connection.baseUrl}/models?limit=1000`, {
      'x-api-key': connection.apiKey ?? '',
      'anthropic-version': ANTHROPIC_VERSION,
    });
    return ids(await readJson(res), 'data', 'id');
  }
  const auth: Record<string, string> = connection.apiKey
    ? { authorization: `Bearer ${connection.apiKey}` }
    : {};
  if (connection.kind === 'ollama') {
    const root = connection.baseUrl.replace(/\/v1$/, '');
    const tags = await get(`${root}/api/tags`, auth);
    if (tags.status !== 404) return ids(await readJson(tags), 'models', 'name');
    await tags.body?.cancel();
  }
  const res = await get(`${sdkBaseUrl(connection.kind, connection.baseUrl)}/models`, auth);
  return ids(await readJson(res), 'data', 'id');
}

function ids(body: unknown, listKey: string, idKey: string): string[] {
  const list = (body as Record<string, unknown> | null)?.[listKey];
  if (!Array.isArray(list)) return [];
  const names = list
    .map((entry) => (entry as Record<string, unknown> | null)?.[idKey])
    .filter((id): id is string => typeof id === 'string' && id.length > 0);
  return [...new Set(names)].sort((a, b) => a.localeCompare(b));
}
