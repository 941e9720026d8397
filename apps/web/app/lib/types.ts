import type { TUser } from '@cairn/contracts/accounts';
import type { TApplication } from '@cairn/contracts/applications';
import type { TChatroomSource } from '@cairn/contracts/chat';

/** The API's answers as the web app uses them. */
export type User = TUser;
export type Application = TApplication;

/** GET /api/applications/{appId}/chatrooms/ → { chatrooms: ChatroomSummary[] } */
export interface ChatroomSummary {
  uuid: string;
  name: string;
  source: TChatroomSource;
  created_at?: string;
  last_message_at?: string | null;
}

/** The sidebar's chatroom list with its loading outcome (specification §4: list has an error state). */
export interface ChatroomList {
  chatrooms: ChatroomSummary[];
  error: string | null;
  /** The application has more chats than the sidebar shows (the rest are in its conversation log). */
  more: boolean;
}
