import type { TProviderKind } from '@cairn/contracts/model-providers';

/** What the add-provider form shows per kind: the default URL (placeholder) and a hint. */
export const KIND_HELP: Record<TProviderKind, { placeholder: string; hint: string; keyHint: string }> = {
  openai: {
    placeholder: 'https://api.openai.com/v1',
    hint: 'Leave empty for api.openai.com.',
    keyHint: 'Required. Starts with sk-.',
  },
  anthropic: {
    placeholder: 'https://api.anthropic.com/v1',
    hint: 'Leave empty for api.anthropic.com. Anthropic has text models only.',
    keyHint: 'Required. Starts with sk-ant-.',
  },
  ollama: {
    placeholder: 'http://localhost:11434',
    hint: 'Where Ollama runs; leave empty for this machine.',
    keyHint: 'Usually not needed.',
  },
  openai_compatible: {
    placeholder: 'http://localhost:1234/v1',
    hint: 'The /v1 URL of vLLM, LM Studio, llama.cpp, Groq, OpenRouter …',
    keyHint: 'If the server asks for one.',
  },
};

/** A guess for the picker: names with "embed" are usually embedding models. */
export const guessModelType = (name: string) =>
  /embed|bge|e5-|minilm|nomic/i.test(name) ? 'embedding' : 'text';
