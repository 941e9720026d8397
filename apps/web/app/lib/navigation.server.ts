import type { TNavigation } from '@cairn/contracts/navigation';
import { data } from 'react-router';
import type { ApiClient } from './api.server';
import { ApiError } from './api-error';
import type { Application, ChatroomList, User } from './types';
import { NEW_CHAT_ID, UUID_RE } from './utils';

export const CHATROOMS_FAILED = 'Failed to load chatrooms';

/** Route parameters that pass validation (specification §2: the others are a 404). */
export function paramsValid(params: { appId?: string; chatroomId?: string }): boolean {
  if (params.appId !== undefined && !UUID_RE.test(params.appId)) return false;
  return (
    params.chatroomId === undefined || params.chatroomId === NEW_CHAT_ID || UUID_RE.test(params.chatroomId)
  );
}

/** Route parameters that fail validation are a 404 (specification §2). */
export function assertParams(params: { appId?: string; chatroomId?: string }) {
  if (!paramsValid(params)) throw data(null, { status: 404 });
}

export interface Navigation {
  user: User;
  applications: Application[];
  selected: Application | null;
  chatrooms: ChatroomList;
  attentionCount: number | null;
  /** The page's application is not the user's (deleted, someone else's, or not an id): the page is a 404. */
  notFound: boolean;
}

/**
 * The navigation step (specification §2): the user's applications, the one matching appId or else the
 * first, that application's chatrooms and its attention badge, in one API call (GET /api/navigation/).
 * An appId that is not one of the user's applications (or bad parameters) gives the navigation with
 * the first application selected and `notFound`: the page is a 404 drawn inside the shell. Chatrooms the
 * API could not read are shown as 'Failed to load chatrooms'; an unreadable badge is left out, never wrong.
 */
export async function loadNavigation(
  api: ApiClient,
  params: { appId?: string; chatroomId?: string },
): Promise<Navigation> {
  if (!paramsValid(params)) return { ...(await loadNavigation(api, {})), notFound: true };
  let navigation: TNavigation;
  try {
    navigation = await api.get<TNavigation>('/api/navigation/', { query: { application: params.appId } });
  } catch (error) {
    if (params.appId !== undefined && error instanceof ApiError && error.status === 404) {
      return { ...(await loadNavigation(api, {})), notFound: true };
    }
    throw error;
  }
  const { user, applications, attention } = navigation;
  return {
    user,
    applications,
    selected: applications.find((a) => a.uuid === navigation.selected) ?? null,
    chatrooms: navigation.chatrooms
      ? { chatrooms: navigation.chatrooms, error: null, more: navigation.more_chatrooms }
      : { chatrooms: [], error: CHATROOMS_FAILED, more: false },
    attentionCount: attention ? attention.waiting + attention.unanswered + attention.negative_feedback : null,
    notFound: false,
  };
}
