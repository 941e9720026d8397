import { ASSISTANT_SENDER, type TChatroom, type TMessage, type TSource } from '@cairn/contracts/chat';
import { isConversationNotice } from '@cairn/contracts/conversation-notices';
import {
  type TWidgetConversation,
  type TWidgetMessage,
  type TWidgetRole,
  VISITOR_SENDER_PREFIX,
} from '@cairn/contracts/widget';

const roleOf = (sender: string): TWidgetRole =>
  sender === ASSISTANT_SENDER
    ? 'assistant'
    : sender.startsWith(`${VISITOR_SENDER_PREFIX}_`)
      ? 'visitor'
      : 'human';

/** A message as the visitor sees it: text, who wrote it, sources if the owner shows them; nothing internal. */
export function widgetMessageOf(message: TMessage, showSources: boolean): TWidgetMessage {
  const role = roleOf(message.sender_identifier);
  const meta = message.metadata;
  return {
    uuid: message.uuid,
    role,
    author_name: role === 'human' && typeof meta.sender_name === 'string' ? meta.sender_name : null,
    text: message.message,
    status: message.status,
    run: message.run,
    sources:
      showSources && role === 'assistant' && Array.isArray(meta.sources) ? (meta.sources as TSource[]) : [],
    feedback: message.feedback,
    not_covered: role === 'assistant' && meta.not_covered === true,
    notice: role === 'assistant' && isConversationNotice(meta),
    created_at: message.created_at,
  };
}

export function widgetConversationOf(chatroom: TChatroom): TWidgetConversation {
  return {
    uuid: chatroom.uuid,
    handled_by: chatroom.handled_by,
    waiting_since: chatroom.waiting_since,
    created_at: chatroom.created_at,
  };
}
