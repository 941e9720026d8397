import type {
  TChatroom,
  TChatroomMessages,
  TFeedback,
  THandledBy,
  TMessage,
  TSendMessageRequest,
  TSendMessageResponse,
} from '@cairn/contracts/chat';
import { ofetch } from 'ofetch';
import { normalizeError } from '../../lib/api-error';

/**
 * Chat calls made from the browser, straight to the API on the same origin (the auth_token cookie
 * authenticates them; the API accepts cookie-authenticated writes from its own origin only).
 * Streaming and optimistic updates need them client-side; failures are the same ApiError as on the server.
 */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  try {
    return await ofetch<T>(path, {
      method,
      body: body as Record<string, unknown> | undefined,
      credentials: 'same-origin',
      // The specification's rules: retry non-body methods once on transient statuses, never POST.
      retry: method === 'GET' ? 1 : 0,
      retryDelay: 100,
    });
  } catch (error) {
    throw normalizeError(error);
  }
}

const roomPath = (appId: string, chatroomId: string) => `/api/applications/${appId}/chatrooms/${chatroomId}`;

export const chatApi = {
  messages: (appId: string, chatroomId: string) =>
    request<TChatroomMessages>('GET', `${roomPath(appId, chatroomId)}/messages/`),
  send: (appId: string, body: TSendMessageRequest) =>
    request<TSendMessageResponse>('POST', `/api/applications/${appId}/chatrooms/send-message/`, body),
  stop: (appId: string, chatroomId: string, messageId: string) =>
    request<TMessage>('POST', `${roomPath(appId, chatroomId)}/messages/${messageId}/stop/`),
  regenerate: (appId: string, chatroomId: string, messageId: string) =>
    request<TMessage>('POST', `${roomPath(appId, chatroomId)}/messages/${messageId}/regenerate/`),
  feedback: (appId: string, chatroomId: string, messageId: string, feedback: TFeedback | null) =>
    request<TMessage>('PUT', `${roomPath(appId, chatroomId)}/messages/${messageId}/feedback/`, { feedback }),
  rename: (appId: string, chatroomId: string, name: string) =>
    request<TChatroom>('PATCH', `${roomPath(appId, chatroomId)}/`, { name }),
  /** Take a chatroom over (`human`) or hand it back to the assistant. */
  handle: (appId: string, chatroomId: string, handledBy: THandledBy) =>
    request<TChatroom>('PATCH', `${roomPath(appId, chatroomId)}/`, { handled_by: handledBy }),
  remove: (appId: string, chatroomId: string) => request<null>('DELETE', `${roomPath(appId, chatroomId)}/`),
};
