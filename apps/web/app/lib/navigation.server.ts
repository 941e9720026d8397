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
 * The navigation step (specification §2): the user's applications, the one matching appId or else the
 * first, and that application's chatrooms. An appId that is not one of the user's applications is a 404.
 */
export async function loadNavigation(
  api: ApiClient,
  params: { appId?: string },
): Promise<{
  user: User;
  applications: Application[];
  selected: Application | null;
  chatrooms: ChatroomList;
}> {
  const [user, applications] = await Promise.all([
    api.get<User>('/api/me/'),
    api.get<Application[]>('/api/applications/'),
  ]);
  const selected = params.appId
    ? (applications.find((a) => a.uuid === params.appId) ?? null)
    : (applications[0] ?? null);
  if (params.appId && !selected) throw data(null, { status: 404 });
  const chatrooms = selected ? await loadChatrooms(api, selected.uuid) : { chatrooms: [], error: null };
  return { user, applications, selected, chatrooms };
}
