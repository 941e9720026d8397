import type { TAttentionCount } from '@cairn/contracts/attention';
import { data } from 'react-router';
import type { ApiClient } from './api.server';
import { ApiError } from './api-error';
import type { Application, ChatroomList, ChatroomSummary, User } from './types';
import { NEW_CHAT_ID, UUID_RE } from './utils';

export const CHATROOMS_FAILED = 'Failed to load chatrooms';

/** Route parameters that fail validation are a 404 (specification §2). */
export function assertParams(params: { appId?: string; chatroomId?: string }) {
  if (params.appId !== undefined && !UUID_RE.test(params.appId)) throw data(null, { status: 404 });
  if (
    params.chatroomId !== undefined &&
    params.chatroomId !== NEW_CHAT_ID &&
    !UUID_RE.test(params.chatroomId)
  ) {
    throw data(null, { status: 404 });
  }
}

/**
 * The chatrooms of one application for the sidebar. Until the chatrooms endpoint exists (404) the
 * list is simply empty; any other failure is shown as 'Failed to load chatrooms'.
 */
export async function loadChatrooms(api: ApiClient, appId: string): Promise<ChatroomList> {
  try {
    const answer = await api.get<{ chatrooms: ChatroomSummary[] }>(`/api/applications/${appId}/chatrooms/`);
    return { chatrooms: answer.chatrooms ?? [], error: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { chatrooms: [], error: null };
    return { chatrooms: [], error: CHATROOMS_FAILED };
  }
}

/**
 * How many things need the owner in an application (visitors waiting plus unanswered questions), for
 * the sidebar's badge; null when it could not be read (the badge is then left out, never wrong).
 */
export async function loadAttentionCount(api: ApiClient, appId: string): Promise<number | null> {
  try {
    const answer = await api.get<TAttentionCount>(`/api/applications/${appId}/attention/count/`);
    return answer.waiting + answer.unanswered;
  } catch {
    return null;
  }
}

/**
 * The navigation step (specification §2): the user's applications, the one matching appId or else the
 * first, and that application's chatrooms. An appId that is not one of the user's applications is a 404.
 * With an appId its chatrooms are asked for alongside the applications (one wait instead of two); a
 * foreign appId's chatrooms answer 404 and are dropped with the page's own 404.
 */
export async function loadNavigation(
  api: ApiClient,
  params: { appId?: string },
): Promise<{
  user: User;
  applications: Application[];
  selected: Application | null;
  chatrooms: ChatroomList;
  attentionCount: number | null;
}> {
  const [user, applications, ofAppId, attentionOfAppId] = await Promise.all([
    api.get<User>('/api/me/'),
    api.get<Application[]>('/api/applications/'),
    params.appId ? loadChatrooms(api, params.appId) : undefined,
    params.appId ? loadAttentionCount(api, params.appId) : undefined,
  ]);
  const selected = params.appId
    ? (applications.find((a) => a.uuid === params.appId) ?? null)
    : (applications[0] ?? null);
  if (params.appId && !selected) throw data(null, { status: 404 });
  const [chatrooms, attentionCount] = params.appId
    ? [ofAppId!, attentionOfAppId ?? null]
    : selected
      ? await Promise.all([loadChatrooms(api, selected.uuid), loadAttentionCount(api, selected.uuid)])
      : [{ chatrooms: [], error: null }, null];
  return { user, applications, selected, chatrooms, attentionCount };
}
