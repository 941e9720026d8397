import type { TNavigation } from '@cairn/contracts/navigation';
import { data } from 'react-router';
import type { ApiClient } from './api.server';
import { ApiError } from './api-error';
import type { Application, ChatroomList, User } from './types';
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
 * The navigation step (specification §2): the user's applications, the one matching appId or else the
 * first, that application's chatrooms and its attention badge, in one API call (GET /api/navigation/).
 * An appId that is not one of the user's applications is a 404. Chatrooms the API could not read are
 * shown as 'Failed to load chatrooms'; an unreadable badge is left out, never wrong.
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
  let navigation: TNavigation;
  try {
    navigation = await api.get<TNavigation>('/api/navigation/', { query: { application: params.appId } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    throw error;
  }
  const { user, applications, attention } = navigation;
  return {
    user,
    applications,
    selected: applications.find((a) => a.uuid === navigation.selected) ?? null,
    chatrooms: navigation.chatrooms
      ? { chatrooms: navigation.chatrooms, error: null }
      : { chatrooms: [], error: CHATROOMS_FAILED },
    attentionCount: attention ? attention.waiting + attention.unanswered + attention.negative_feedback : null,
  };
}
