import type { TLlmModel } from '@cairn/contracts/applications';
import type { Database } from '@cairn/db/client';
import { streamText } from 'ai';
import { loadProviderModel } from './load-provider-model.ts';
import { ModelProviderError, toModelProviderError } from './provider-errors.ts';
import { languageModelFor } from './provider-sdk.ts';
import type { TextGeneration, TextModel, TextRequest, Usage } from './types.ts';

export interface ResolveTextModelOptions {
  /** Longest silence allowed from the provider: before the first token and between tokens. */
  idleTimeoutMs?: number;
  /** Retries of retryable failures (429, 5xx) with the SDK's exponential backoff. */
  maxRetries?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 1;

/**
 * The application's text model as a streaming `TextModel`. Built-in refs are not provider models
 * (the chat answers those itself) and are refused. Every failure — from resolution (model deleted,
 * key unreadable) or from the stream (bad key, rate limit, timeout, unknown model, unreachable) —
 * is a `ModelProviderError` with a message fit for the conversation; the stream never hangs past
 * `idleTimeoutMs` of silence.
 */
export async function resolveTextModel(
  database: Database,
  ownerId: number,
  ref: TLlmModel,
  options: ResolveTextModelOptions = {},
): Promise<TextModel> {
  if (ref.model_type !== 'text') {
    throw new ModelProviderError('not_configured', `"${ref.name}" is not a text model.`);
  }
  if (ref.provider === 'builtin') {
    throw new ModelProviderError('not_configured', `"${ref.name}" is built in, not a provider model.`);
  }
  const { provider, model } = await loadProviderModel(database, ref.uuid, 'text', ownerId);
  const languageModel = languageModelFor(provider, model.name);
  const timeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const context = { provider: provider.name, model: model.name, baseUrl: provider.baseUrl, timeoutMs };
  // Anthropic accepts 0–1; the application setting allows up to 2 (OpenAI's range).
  const maxTemperature = provider.kind === 'anthropic' ? 1 : 2;

  return {
    ref,
    generate(request: TextRequest): TextGeneration {
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(
          () => controller.abort(new DOMException('The provider did not answer in time.', 'TimeoutError')),
          timeoutMs,
        );
      };
      const forwardAbort = () => controller.abort(request.signal?.reason);
      request.signal?.addEventListener('abort', forwardAbort, { once: true });
      if (request.signal?.aborted) forwardAbort();

      let settle!: { resolve: (u: Usage | undefined) => void; reject: (e: unknown) => void };
      const usage = new Promise<Usage | undefined>((resolve, reject) => {
        settle = { resolve, reject };
      });
      // The caller may only read the text; an unread rejected `usage` must not crash the process.
      usage.catch(() => {});

      const failure = (error: unknown): unknown => {
        // The caller cancelled: hand back their reason untouched, it is not a provider failure.
        if (request.signal?.aborted) return request.signal.reason;
        const reason: unknown = controller.signal.reason;
        if (reason instanceof DOMException && reason.name === 'TimeoutError') {
          return toModelProviderError(reason, context);
        }
        return toModelProviderError(error, context);
      };

      async function* textStream(): AsyncGenerator<string> {
        arm();
        try {
          const result = streamText({
            model: languageModel,
            system: request.system,
            messages: request.messages,
            temperature: Math.min(Math.max(request.temperature, 0), maxTemperature),
            maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
            abortSignal: controller.signal,
            // Errors arrive as stream parts and are rethrown below; the default handler would log them.
            onError: () => {},
          });
          let finished: Usage | undefined;
          for await (const part of result.fullStream) {
            arm();
            if (part.type === 'text-delta') {
              if (part.text) yield part.text;
            } else if (part.type === 'error') {
              throw failure(part.error);
            } else if (part.type === 'abort') {
              throw failure(controller.signal.reason);
            } else if (part.type === 'finish') {
              finished = {
                input_tokens: part.totalUsage.inputTokens,
                output_tokens: part.totalUsage.outputTokens,
              };
            }
          }
          settle.resolve(finished);
        } catch (error) {
          const mapped = failure(error);
          settle.reject(mapped);
          throw mapped;
        } finally {
          clearTimeout(timer);
          request.signal?.removeEventListener('abort', forwardAbort);
          // Leaving the loop early (the consumer stopped reading) must also stop the HTTP call.
          if (!controller.signal.aborted) controller.abort();
          settle.resolve(undefined);
        }
      }

      return { textStream: textStream(), usage };
    },
  };
}
