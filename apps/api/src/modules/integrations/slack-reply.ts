import type { TMessage } from '@cairn/contracts/chat';
import { failedAnswerText, sourceLine, sourcesOf, splitText } from './answer-text.ts';

/** Feedback buttons' action ids; their `value` is the answer's uuid. */
export const FEEDBACK_ACTIONS = { cairn_feedback_up: 'up', cairn_feedback_down: 'down' } as const;
export type FeedbackAction = keyof typeof FEEDBACK_ACTIONS;

/** Slack's limit on a section's text. */
const SECTION_MAX = 3000;

/** `&`, `<` and `>` are Slack's control characters in message text. */
const escapeSlack = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The answer's Markdown as Slack's mrkdwn: bold, links and headings; everything else reads as is. */
export function toMrkdwn(markdown: string): string {
  return escapeSlack(markdown)
    .replace(/^#{1,6}\s+(.+)$/gm, '*$1*')
    .replace(/\*\*(.+?)\*\*/g, '*$1*')
    .replace(/\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g, '<$2|$1>');
}

type Block = { type: string; block_id?: string; [key: string]: unknown };

/**
 * A Block Kit message for an answer: its text, the passages it cites, and 👍/👎 buttons (their
 * clicks come to the interactivity URL). `text` is the notification's fallback.
 */
export function slackAnswerMessage(answer: TMessage): { text: string; blocks: Block[] } {
  if (answer.status === 'failed') {
    const text = failedAnswerText(answer);
    return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: escapeSlack(text) } }] };
  }
  const body = answer.message.trim() || '(empty answer)';
  const blocks: Block[] = splitText(toMrkdwn(body), SECTION_MAX)
    .slice(0, 40)
    .map((piece) => ({ type: 'section', text: { type: 'mrkdwn', text: piece } }));
  const sources = sourcesOf(answer);
  if (sources.length) {
    const list = sources.map((s) => escapeSlack(sourceLine(s))).join('\n');
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `*Sources*\n${list}`.slice(0, SECTION_MAX) }],
    });
  }
  blocks.push({
    type: 'actions',
    block_id: 'cairn_feedback',
    elements: [
      {
        type: 'button',
        action_id: 'cairn_feedback_up',
        value: answer.uuid,
        text: { type: 'plain_text', text: '👍', emoji: true },
      },
      {
        type: 'button',
        action_id: 'cairn_feedback_down',
        value: answer.uuid,
        text: { type: 'plain_text', text: '👎', emoji: true },
      },
    ],
  });
  return { text: body.slice(0, 3000), blocks };
}
