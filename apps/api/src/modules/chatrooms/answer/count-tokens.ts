/**
 * Token counts for the built-in models, which have no provider to report usage: cl100k_base (GPT-4's
 * BPE), a real tokenizer rather than a word count. It is loaded on first use (~0.2 s, ~36 MB; o200k
 * would cost ~58 MB), so a process that never answers with the built-in models never pays for it.
 */
type Counter = (text: string) => number;

let loading: Promise<Counter> | undefined;

export function loadTokenCounter(): Promise<Counter> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then(
    // Text that spells a special token (`<|endoftext|>`) is counted as text, never refused.
    ({ countTokens }) =>
      (text: string) =>
        countTokens(text, { disallowedSpecial: new Set() }),
  );
  return loading;
}
