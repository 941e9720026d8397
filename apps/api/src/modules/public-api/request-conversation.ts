import { MESSAGE_MAX } from '@cairn/contracts/chat';
import { CHAT_ROLES, type TChatMessageIn } from '@cairn/contracts/public-api';
import { asFreeText } from '@cairn/contracts/text';
import type { ChatTurn } from '../../models/types.ts';
import { HISTORY_TURNS, TURN_MAX } from '../chatrooms/answer/answer-message.ts';
import { invalidRequest } from './openai-error.ts';

/** The most characters of `system`/`developer` text one request may add to the instructions. */
export const REQUEST_INSTRUCTIONS_MAX = 16_000;

export interface RequestConversation {
  /** The last `user` message. */
  question: string;
  /** The `user`/`assistant` turns before it (the last ten, each cut at 2,000 characters). */
  history: ChatTurn[];
  /** `system` and `developer` messages, added to the application's instructions. */
  instructions: string;
}

const isRole = (role: string): role is (typeof CHAT_ROLES)[number] =>
  (CHAT_ROLES as readonly string[]).includes(role);

/** A message's text: a string, or its text parts joined; control characters removed (free text). */
function textOf(message: TChatMessageIn, at: number, field: string): string {
  const { content } = message;
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return asFreeText(content);
  return content
    .map((part, j) => {
      if (part.type !== 'text' || typeof part.text !== 'string') {
        throw invalidRequest(
          `Only text content is supported; ${field}[${at}].content[${j}] has type '${String(part.type).slice(0, 40)}'.`,
          `${field}[${at}].content[${j}].type`,
        );
      }
      return asFreeText(part.text);
    })
    .join('\n');
}

/**
 * Reads a Chat Completions `messages` list (or the Responses API's `input` items, `field`) as Cairn
 * answers it: the last message is the question and must be the user's; `user`/`assistant` messages
 * before it are the history; `system` and `developer` messages add to the application's
 * instructions (they never replace them).
 */
export function requestConversation(messages: TChatMessageIn[], field = 'messages'): RequestConversation {
  const turns: ChatTurn[] = [];
  const instructions: string[] = [];
  messages.forEach((message, at) => {
    if (!isRole(message.role)) {
      throw invalidRequest(
        `Invalid value: '${message.role.slice(0, 40)}'. Supported roles are 'system', 'developer', 'user' and 'assistant'.`,
        `${field}[${at}].role`,
      );
    }
    const text = textOf(message, at, field);
    if (message.role === 'system' || message.role === 'developer') {
      if (text.trim()) instructions.push(text.trim());
    } else {
      turns.push({ role: message.role, content: text });
    }
  });
  const last = messages.length - 1;
  if (messages[last]!.role !== 'user') {
    throw invalidRequest(
      'The last message must have the role `user`: it is the question the application answers.',
      `${field}[${last}].role`,
    );
  }
  const question = turns.pop()!.content.trim();
  if (!question)
    throw invalidRequest('The question (the last user message) is empty.', `${field}[${last}].content`);
  if (question.length > MESSAGE_MAX) {
    throw invalidRequest(
      `The question (the last user message) has ${question.length.toLocaleString('en')} characters; at most ${MESSAGE_MAX.toLocaleString('en')} are allowed.`,
      `${field}[${last}].content`,
      'string_above_max_length',
    );
  }
  const joined = instructions.join('\n\n');
  if (joined.length > REQUEST_INSTRUCTIONS_MAX) {
    throw invalidRequest(
      `The system messages have ${joined.length.toLocaleString('en')} characters; at most ${REQUEST_INSTRUCTIONS_MAX.toLocaleString('en')} are allowed.`,
      field,
      'string_above_max_length',
    );
  }
  const history = turns
    .filter((t) => t.content.trim())
    .slice(-HISTORY_TURNS)
    .map((t) => ({ role: t.role, content: t.content.slice(0, TURN_MAX) }));
  return { question, history, instructions: joined };
}
