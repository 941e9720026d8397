/**
 * The assistant's messages about a conversation itself, not answers: nobody replied in time
 * (`handoff_timeout`), the owner handed it back (`handed_back`). Nothing to rate or regenerate.
 * No zod here: the web app imports this in the browser.
 */

/** What the visitor reads when the owner hands a conversation back to the assistant. */
export const HANDED_BACK_NOTICE = 'You are chatting with the assistant again.';

export const isConversationNotice = (metadata: Record<string, unknown>): boolean =>
  metadata.handoff_timeout === true || metadata.handed_back === true;
