import type { TLlmModel } from '@cairn/contracts/applications';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface TextRequest {
  system: string;
  messages: ChatTurn[];
  temperature: number;
  /** The most tokens the answer may have; the provider's default when absent. */
  maxTokens?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface Usage {
  input_tokens?: number | undefined;
  output_tokens?: number | undefined;
}

/** A streaming text generation; `usage` settles when the stream ends (or rejects with its error). */
export interface TextGeneration {
  textStream: AsyncIterable<string>;
  usage: Promise<Usage | undefined>;
  /** True once the stream has ended because it reached `maxTokens`. */
  truncated?: () => boolean;
}

/** A provider-backed text model (OpenAI-compatible, Anthropic, Ollama …). */
export interface TextModel {
  ref: TLlmModel;
  generate(request: TextRequest): TextGeneration;
}

/** Turns texts into vectors of a fixed dimension. */
export interface Embedder {
  /** Stable id of the model (stored with the vectors, so a model change is detected). */
  id: string;
  dimensions: number;
  embed(texts: string[]): Promise<number[][]>;
}
