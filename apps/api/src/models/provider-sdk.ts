import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { EmbeddingModel, LanguageModel } from 'ai';
import type { ProviderConnection } from './load-provider-model.ts';
import { ModelProviderError } from './provider-errors.ts';
import { providerFetch, sdkBaseUrl } from './provider-url.ts';

// The SDK prints compatibility warnings (unknown model names …) with console.warn; they are not
// errors, and the process logs through pino only.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/**
 * The AI SDK model for a provider connection. OpenAI, Ollama and OpenAI-compatible servers all go
 * through chat-completions (`.chatModel()`), the one API every compatible server implements (the
 * Responses API is OpenAI-only); Anthropic through its Messages API.
 */
export function languageModelFor(
  connection: ProviderConnection,
  modelName: string,
): Exclude<LanguageModel, string> {
  if (connection.kind === 'anthropic') {
    if (!connection.apiKey) {
      throw new ModelProviderError('not_configured', `The provider "${connection.name}" has no API key.`);
    }
    return createAnthropic({
      baseURL: connection.baseUrl,
      apiKey: connection.apiKey,
      fetch: providerFetch,
    }).messages(modelName);
  }
  return openAICompatible(connection).chatModel(modelName);
}

export function embeddingModelFor(
  connection: ProviderConnection,
  modelName: string,
): Exclude<EmbeddingModel, string> {
  if (connection.kind === 'anthropic') {
    throw new ModelProviderError('not_configured', 'Anthropic offers no embedding models.');
  }
  return openAICompatible(connection).embeddingModel(modelName);
}

function openAICompatible(connection: ProviderConnection) {
  return createOpenAICompatible({
    name: connection.kind,
    baseURL: sdkBaseUrl(connection.kind, connection.baseUrl),
    apiKey: connection.apiKey,
    includeUsage: true,
    fetch: providerFetch,
  });
}
