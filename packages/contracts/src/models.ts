import type { TLlmModel } from './applications.ts';

/** Built-in models: they run inside Cairn and need no network. */
export const BUILTIN_TEXT_MODEL: TLlmModel = {
  uuid: 'builtin-extractive',
  name: 'Built-in extractive answerer',
  provider: 'builtin',
  model_type: 'text',
};
export const BUILTIN_EMBEDDING_MODEL: TLlmModel = {
  uuid: 'builtin-embedding',
  name: 'Built-in keyword search (no vectors)',
  provider: 'builtin',
  model_type: 'embedding',
};
export const DEFAULT_LLM_MODELS: TLlmModel[] = [BUILTIN_TEXT_MODEL, BUILTIN_EMBEDDING_MODEL];
