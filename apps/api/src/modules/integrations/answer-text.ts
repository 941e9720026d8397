import type { TMessage, TSource } from '@cairn/contracts/chat';

/** The passages an answer cites, as stored with it. */
export const sourcesOf = (message: TMessage) => (message.metadata.sources ?? []) as TSource[];

/** `[1] Title — heading, p. 3`: one cited passage, as a line of a chat message. */
export function sourceLine(source: TSource): string {
  const where = [source.heading, source.page !== null ? `p. ${source.page}` : null]
    .filter(Boolean)
    .join(', ');
  return `[${source.index}] ${source.item_title}${where ? ` — ${where}` : ''}`;
}

/** What a chat user reads when the application could not answer. */
export function failedAnswerText(message: TMessage): string {
  const why = typeof message.metadata.error === 'string' ? ` (${message.metadata.error})` : '';
  return `Sorry, I could not answer this time${why}. Please try again later.`;
}

/** Splits text into pieces of at most `max` characters, at a paragraph or line end when one is near. */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const cut = Math.max(
      rest.lastIndexOf('\n\n', max),
      rest.lastIndexOf('\n', max),
      rest.lastIndexOf(' ', max),
    );
    const at = cut > max / 2 ? cut : max;
    pieces.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** A sentence for a service that could not be reached, whatever punctuation the cause ends with. */
export const tryLater = (cause: string) => `${cause.replace(/[.\s]+$/, '')}. Try again later.`;
