/**
 * Which wire protocol a provider speaks (OpenAI, Ollama and "compatible" share chat-completions).
 * No zod here: the models page imports these in the browser.
 */
export const PROVIDER_KIND_VALUES = ['openai', 'anthropic', 'ollama', 'openai_compatible'] as const;
export type TProviderKind = (typeof PROVIDER_KIND_VALUES)[number];

export const PROVIDER_KIND_LABELS: Record<TProviderKind, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
  openai_compatible: 'OpenAI-compatible',
};
