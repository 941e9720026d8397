import type {
  TChatroom,
  TChatroomMessages,
  TFeedback,
  THandledBy,
  TMessage,
  TSendMessageRequest,
  TSendMessageResponse,
} from '@cairn/contracts/chat';
import { normalizeError, RETRY_STATUS_CODES } from '../../lib/api-error';

/**
 * Chat calls made from the browser, straight to the API on the same origin (the auth_token cookie
 * authenticates them; the API accepts cookie-authenticated writes from its own origin only).
 * Streaming and optimistic updates need them client-side; failures are the same ApiError as on the server.
 */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  // The specification's rules: retry a GET once on a transient status or a network failure, never a write.
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchJson<T>(method, path, body);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (method !== 'GET' || attempt > 0 || (status !== undefined && !RETRY_STATUS_CODES.includes(status))) {
        throw normalizeError(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * fetch with a JSON body and answer; a failed status throws an error shaped like ofetch's
 * FetchError (status, parsed body in `data`), which normalizeError reads. No fetch library in the
 * browser bundle (issue 13).
 */
async function fetchJson<T>(method: string, path: string, body: unknown): Promise<T> {
  const json = body !== undefined && !(body instanceof FormData);
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(body) : (body as FormData | undefined),
  });
  const text = await res.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: kept as text.
  }
  if (!res.ok) {
    const error = new Error(`[${method}] "${path}": ${res.status} ${res.statusText}`);
    throw Object.assign(error, { name: 'FetchError', status: res.status, statusCode: res.status, data });
  }
  return data as T;
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
