import type { TKnowledgeChunkPage } from '@cairn/contracts/knowledge-chunks';
import { apiFor } from '../lib/api.server';
import { ApiError } from '../lib/api-error';
import type { Route } from './+types/knowledge-chunks';

/** Not a page: the next passages of an item for the chunk view's "Load more". */
export async function loader(args: Route.LoaderArgs) {
  const cursor = new URL(args.request.url).searchParams.get('cursor');
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  try {
    return await apiFor(args).get<TKnowledgeChunkPage>(
      `/api/applications/${encodeURIComponent(args.params.appId)}/knowledge/${encodeURIComponent(args.params.itemId)}/chunks/${query}`,
    );
  } catch (error) {
    if (error instanceof ApiError) return { formError: error.message };
    throw error;
  }
}
