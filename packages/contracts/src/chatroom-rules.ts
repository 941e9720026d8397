/**
 * Where a conversation came from, and which ones the sidebar lists: read by the API and the web app.
 * No zod here: every signed-in page's layout imports this without shipping the schemas (chat.ts
 * builds them on it).
 */

/** Where a conversation came from: the owner's web app, the public API, the website widget, Slack, Telegram, an MCP client. */
export const CHATROOM_SOURCES = ['web', 'api', 'widget', 'slack', 'telegram', 'mcp'] as const;
export type TChatroomSource = (typeof CHATROOM_SOURCES)[number];
/** How people read a source, in the sidebar and in notifications ("New MCP conversation"). */
export const CHATROOM_SOURCE_LABELS: Record<TChatroomSource, string> = {
  web: 'Web',
  api: 'API',
  widget: 'Widget',
  slack: 'Slack',
  telegram: 'Telegram',
  mcp: 'MCP',
};

/**
 * The sidebar lists the owner's own chats and the conversations waiting for a person or answered
 * by one (decision 067); every other conversation (API, MCP, widget, Slack, Telegram) is in the
 * conversation log. `GET …/chatrooms/` answers exactly these, and live events are sorted by it.
 */
export const isInSidebar = (room: {
  source: TChatroomSource;
  handled_by: 'assistant' | 'human';
  waiting_since: string | null;
}) => room.source === 'web' || room.handled_by === 'human' || Boolean(room.waiting_since);
