import { ModelProviderError } from '../../../models/provider-errors.ts';

/** Turns whatever answering threw into one sentence a person understands, plus its kind. */
export function describeProviderError(error: unknown): { message: string; kind: string } {
  // The provider clients already word their failures (bad key, rate limit, timeout, unknown model …).
  if (error instanceof ModelProviderError) return { message: error.message, kind: error.kind };
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `The answer failed: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`,
    kind: 'internal',
  };
}
