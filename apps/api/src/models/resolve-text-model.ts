import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { TLlmModel } from '@cairn/contracts/applications';
import type { ModelCtx } from '../lib/ctx.ts';
import { loadProviderModel } from './load-provider-model.ts';
import { ModelProviderError, toModelProviderError } from './provider-errors.ts';
import { providerRetry } from './provider-retry.ts';
import { languageModelFor } from './provider-sdk.ts';
import type { TextGeneration, TextModel, TextRequest, Usage } from './types.ts';

/** The request as the provider interface takes it: the system text, then the turns as text parts. */
function promptOf(request: TextRequest): LanguageModelV4Prompt {
  return [
    { role: 'system', content: request.system },
    ...request.messages.map((turn) => ({
      role: turn.role,
      content: [{ type: 'text' as const, text: turn.content }],
    })),
  ];
}

export interface ResolveTextModelOptions {
  /** Longest silence allowed between tokens (and before the first one unless `firstTokenTimeoutMs` is set). */
  idleTimeoutMs?: number;
  /** Longest wait for the first token: a local server may first load the model into memory. */
  firstTokenTimeoutMs?: number;
  /** Retries of retryable failures (429, 5xx) with the SDK's exponential backoff. */
  maxRetries?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 1;

/**
 * The application's text model as a streaming `TextModel`. Built-in refs are not provider models
 * (the chat answers those itself) and are refused. Every failure — from resolution (model deleted,
 * key unreadable) or from the stream (bad key, rate limit, timeout, unknown model, unreachable) —
 * is a `ModelProviderError` with a message fit for the conversation; the stream never hangs:
 * at most `firstTokenTimeoutMs` before the first token, `idleTimeoutMs` between tokens.
 */
export async function resolveTextModel(
  ctx: ModelCtx,
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
  const { provider, model } = await loadProviderModel(ctx, ref.uuid, 'text', ownerId);
  const languageModel = await languageModelFor(provider, model.name);
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const firstMs = options.firstTokenTimeoutMs ?? options.idleTimeoutMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS;
  // Anthropic accepts 0–1; the application setting allows up to 2 (OpenAI's range).
  const maxTemperature = provider.kind === 'anthropic' ? 1 : 2;

  return {
    ref,
    generate(request: TextRequest): TextGeneration {
      const controller = new AbortController();
      // The window that is running, for the message when it runs out.
      const context = {
        provider: provider.name,
        model: model.name,
        baseUrl: provider.baseUrl,
        timeoutMs: firstMs,
      };
      let timer: NodeJS.Timeout | undefined;
      const arm = (ms: number) => {
        clearTimeout(timer);
        context.timeoutMs = ms;
        timer = setTimeout(
          () => controller.abort(new DOMException('The provider did not answer in time.', 'TimeoutError')),
          ms,
        );
      };
      const forwardAbort = () => controller.abort(request.signal?.reason);
      request.signal?.addEventListener('abort', forwardAbort, { once: true });
      if (request.signal?.aborted) forwardAbort();

      let truncated = false;
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
        arm(firstMs);
        let answering = false;
        try {
          // The provider's own stream (its request, SSE parsing and error mapping), not `streamText`:
          // its orchestration (steps, tools, output parsing, stitched streams), which an answer does
          // not use, cost about 5 ms of CPU per 200-word answer (decision 114).
          const retry = await providerRetry(options.maxRetries ?? DEFAULT_MAX_RETRIES, controller.signal);
          const { stream } = await retry(() =>
            languageModel.doStream({
              prompt: promptOf(request),
              temperature: Math.min(Math.max(request.temperature, 0), maxTemperature),
              ...(request.maxTokens !== undefined && { maxOutputTokens: request.maxTokens }),
              abortSignal: controller.signal,
            }),
          );
          let finished: Usage | undefined;
          for await (const part of stream) {
            // Until the provider produces output, the (longer) first-token window keeps running.
            if (part.type === 'text-delta' || part.type === 'reasoning-delta') answering = true;
            if (answering) arm(idleMs);
            if (part.type === 'text-delta') {
              if (part.delta) yield part.delta;
            } else if (part.type === 'error') {
              throw failure(part.error);
            } else if (part.type === 'finish') {
              finished = {
                input_tokens: part.usage.inputTokens.total,
                output_tokens: part.usage.outputTokens.total,
              };
              truncated = part.finishReason.unified === 'length';
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

      return { textStream: textStream(), usage, truncated: () => truncated };
    },
  };
}
