import type { TMessage } from '@cairn/contracts/chat';
import { failedAnswerText, sourceLine, sourcesOf, splitText } from './answer-text.ts';

/** Telegram's limit on a message's text. */
const MESSAGE_MAX = 4096;

/**
 * An answer as Telegram messages: plain text (no parse mode, so nothing in an answer can break
 * Telegram's markup), its cited passages listed at the end, split to Telegram's length limit.
 */
export function telegramAnswerTexts(answer: TMessage): string[] {
  if (answer.status === 'failed') return [failedAnswerText(answer)];
  const body = (answer.message.trim() || '(empty answer)').replace(/\*\*(.+?)\*\*/g, '$1');
  const sources = sourcesOf(answer);
  const text = sources.length ? `${body}\n\nSources:\n${sources.map(sourceLine).join('\n')}` : body;
  return splitText(text, MESSAGE_MAX);
}
