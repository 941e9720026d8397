/**
 * Text PostgreSQL refused to store, possibly wrapped by Drizzle: a NUL (`22021`, or `22P05` in
 * jsonb), or JSON holding an escaped half of a UTF-16 surrogate pair ("\ud800": `22P02`). Text
 * columns take such a half as U+FFFD, so the second comes only from JSON values (message metadata,
 * a request's history kept with its answer). The statement that failed wrote nothing, so the error
 * handlers answer 400 instead of 500.
 */
export function unstorableText(error: unknown): 'nul' | 'surrogate' | null {
  for (let e = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, detail } = e as { code?: unknown; detail?: unknown };
    if (code === '22021' || code === '22P05') return 'nul';
    if (code === '22P02' && typeof detail === 'string' && /surrogate/i.test(detail)) return 'surrogate';
  }
  return null;
}

export const UNSTORABLE_TEXT_DETAIL = {
  nul: 'The request holds a NUL character, which cannot be stored. Remove it and try again.',
  surrogate:
    'The request holds text that is not valid Unicode (half of a surrogate pair, such as \\ud800), which cannot be stored. Remove it and try again.',
} as const;
