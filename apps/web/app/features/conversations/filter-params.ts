/** The log's filters as the URL and the API name them (contracts/conversations.ts). */
export const FILTER_KEYS = ['q', 'source', 'from', 'to', 'rating', 'status', 'not_covered'] as const;

/** The filters of a URL's search params, empty ones left out: the list, the export and "Load more" share them. */
export function filterParams(search: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    for (const value of search.getAll(key)) if (value.trim()) kept.append(key, value);
  }
  return kept;
}
