import type { TProviderKind } from '@cairn/contracts/model-providers';

/**
 * Constants of @cairn/contracts that pages need in the browser, copied: a contracts module holds
 * zod schemas too, and importing a constant from it ships zod with the page (issue 13).
 * contract-constants.test.ts checks each against its original.
 */
export const ASSISTANT_SENDER = 'assistant';
export const MESSAGE_MAX = 8000;
export const VISITOR_SENDER_PREFIX = 'visitor';
export const KNOWLEDGE_FILE_ACCEPT = '.pdf,.doc,.docx,.txt,.md,.html,.htm,.png,.jpg,.jpeg,.webp';
export const KNOWLEDGE_LIMITS = {
  itemsPerRequest: 100,
  textChars: 200_000,
  titleChars: 255,
  urlChars: 2048,
  crawlDepthMax: 2,
  crawlPages: 20,
  qaQuestionChars: 1000,
  qaAnswerChars: 20_000,
  qaAlternatives: 20,
  qaImportRows: 1000,
  refreshHoursMax: 720,
  sitePagesMax: 1000,
  siteGlobs: 20,
  siteGlobChars: 200,
} as const;
export const PROVIDER_KIND_LABELS: Record<TProviderKind, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
  openai_compatible: 'OpenAI-compatible',
};
export const STRICTNESS_LEVELS = ['strict', 'balanced', 'relaxed'] as const;
export const INSTRUCTIONS_MAX = 4000;
export const NO_ANSWER_MESSAGE_MAX = 1000;
export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 2;
export const RETENTION_DAYS_MIN = 1;
export const RETENTION_DAYS_MAX = 3650;
export const PROVIDER_KIND_VALUES = ['openai', 'anthropic', 'ollama', 'openai_compatible'] as const;
export const senderIdentifierOf = (userId: number) => `reg_${userId}`;
export const API_KEY_PREFIX = 'cairn_';
export const API_KEY_RPM_DEFAULT = 60;
export const API_KEYS_MAX = 50;
export const WEBHOOKS_MAX = 20;
