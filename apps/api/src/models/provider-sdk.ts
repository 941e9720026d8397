import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { EmbeddingModel } from 'ai';
import type { ProviderConnection } from './load-provider-model.ts';
import { ModelProviderError } from './provider-errors.ts';
import { type ProviderAddressPolicy, providerFetchFor, sdkBaseUrl } from './provider-url.ts';

// Each package is imported once and the promise kept: an `import()` per answer is not free (under a
// module loader such as tsx every call crosses to the loader's thread).
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}
const loadAnthropic = once(() => import('@ai-sdk/anthropic'));
const loadOpenAICompatible = once(() => import('@ai-sdk/openai-compatible'));
/** The `ai` package (embedMany), loaded on first use. */
export const loadAiSdk = once(() => import('ai'));
/** The SDK's helpers (the retry of a provider call), loaded on first use. */
export const loadProviderUtils = once(() => import('@ai-sdk/provider-utils'));

// The SDK prints compatibility warnings (unknown model names …) with console.warn; they are not
// errors, and the process logs through pino only.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/**
 * The AI SDK model for a provider connection. The SDK packages load on first use: a server that
 * answers with the built-in models never holds them (~35 MB). OpenAI, Ollama and OpenAI-compatible servers all go
 * through chat-completions (`.chatModel()`), the one API every compatible server implements (the
 * Responses API is OpenAI-only); Anthropic through its Messages API.
 */
export async function languageModelFor(
  connection: ProviderConnection,
  modelName: string,
): Promise<LanguageModelV4> {
  const key = JSON.stringify([connection.kind, connection.baseUrl, connection.apiKey ?? null, modelName]);
  let models = languageModels.get(connection.addresses);
  if (!models) {
    models = new Map();
    languageModels.set(connection.addresses, models);
  }
  const known = models.get(key);
  if (known) {
    // Most recently used last: the first entry is the one evicted.
    models.delete(key);
    models.set(key, known);
    return known;
  }
  const made = await newLanguageModel(connection, modelName);
  models.set(key, made);
  if (models.size > LANGUAGE_MODELS_KEPT) models.delete(models.keys().next().value!);
  return made;
}

/**
 * The SDK's model objects, kept per address policy (the server's configuration) and connection:
 * they hold no state of a request, and making one builds the SDK's zod schemas of a streamed chunk
 * anew, about 1.5 % of the server's CPU per answer (decision 090). A changed key, address or name
 * is another entry; the least recently used beyond this many are dropped.
 */
const languageModels = new WeakMap<ProviderAddressPolicy, Map<string, LanguageModelV4>>();
const LANGUAGE_MODELS_KEPT = 64;

async function newLanguageModel(connection: ProviderConnection, modelName: string): Promise<LanguageModelV4> {
  if (connection.kind === 'anthropic') {
    if (!connection.apiKey) {
      throw new ModelProviderError('not_configured', `The provider "${connection.name}" has no API key.`);
    }
    const { createAnthropic } = await loadAnthropic();
    return createAnthropic({
      baseURL: connection.baseUrl,
      apiKey: connection.apiKey,
      fetch: providerFetchFor(connection.addresses),
    }).messages(modelName);
  }
  return (await openAICompatible(connection)).chatModel(modelName);
}

export async function embeddingModelFor(
  connection: ProviderConnection,
  modelName: string,
): Promise<Exclude<EmbeddingModel, string>> {
  if (connection.kind === 'anthropic') {
    throw new ModelProviderError('not_configured', 'Anthropic offers no embedding models.');
  }
  return (await openAICompatible(connection)).embeddingModel(modelName);
}

async function openAICompatible(connection: ProviderConnection) {
  const { createOpenAICompatible } = await loadOpenAICompatible();
  return createOpenAICompatible({
    name: connection.kind,
    baseURL: sdkBaseUrl(connection.kind, connection.baseUrl),
    apiKey: connection.apiKey,
    includeUsage: true,
    fetch: providerFetchFor(connection.addresses),
  });
}
