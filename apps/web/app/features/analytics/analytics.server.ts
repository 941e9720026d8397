import type { TAnalytics } from '@cairn/contracts/analytics';
import { data } from 'react-router';
import type { ApiClient } from '../../lib/api.server';
import { ApiError, fieldErrorsOf } from '../../lib/api-error';

/** The range the page asks for: the picker's `days`, or a custom `from`/`to`, passed on as they are. */
const RANGE_PARAMS = ['days', 'from', 'to'] as const;

/**
 * The analytics of the page's range; the API judges the range, and a range it refuses (or a failure)
 * is said on the page, next to the picker that can fix it.
 */
export async function loadAnalytics(
  api: ApiClient,
  appId: string,
  url: URL,
): Promise<{ analytics: TAnalytics; error: null } | { analytics: null; error: string }> {
  const query = new URLSearchParams();
  for (const name of RANGE_PARAMS) {
    const value = url.searchParams.get(name);
    if (value) query.set(name, value);
  }
  try {
    const suffix = query.size ? `?${query}` : '';
    return {
      analytics: await api.get<TAnalytics>(`/api/applications/${appId}/analytics/${suffix}`),
      error: null,
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    if (error instanceof ApiError && error.status === 400) {
      const fields = Object.entries(fieldErrorsOf(error)).map(([field, message]) => `${field}: ${message}`);
      return { analytics: null, error: fields.length ? fields.join('; ') : error.message };
    }
    return { analytics: null, error: 'Failed to load the analytics' };
  }
}
