import type { TConversationPage } from '@cairn/contracts/conversations';
import { data } from 'react-router';
import type { ApiClient } from '../../lib/api.server';
import { ApiError } from '../../lib/api-error';
import { filterParams } from './filter-params';

export type ConversationsData = { page: TConversationPage; error: null } | { page: null; error: string };

/**
 * A page of the application's conversation log for the URL's filters (and `cursor`, for "Load
 * more"); a failure other than "no such application" is shown on the page.
 */
export async function loadConversations(api: ApiClient, appId: string, url: URL): Promise<ConversationsData> {
  const query = filterParams(url.searchParams);
  const cursor = url.searchParams.get('cursor');
  if (cursor) query.set('cursor', cursor);
  try {
    const page = await api.get<TConversationPage>(`/api/applications/${appId}/conversations/?${query}`);
    return { page, error: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    if (error instanceof ApiError && error.status === 400)
      return { page: null, error: 'These filters are not valid' };
    return { page: null, error: 'Failed to load the conversations' };
  }
}
