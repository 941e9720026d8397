import { useCallback, useState } from 'react';
import { useFetcher } from 'react-router';

/**
 * A fetcher for a form in a dialog whose answer is forgotten when the dialog closes, so it opens
 * clean next time. Not with `fetcher.reset()`: that aborts the revalidation the action started,
 * so a dialog closed at once ("Done" right after a key or a connection is shown) left the page
 * behind it showing the old list.
 */
export function useDialogFetcher<T>(key: string) {
  const fetcher = useFetcher<T>({ key });
  const [forgotten, setForgotten] = useState<typeof fetcher.data>();
  const { data } = fetcher;
  const forget = useCallback(() => setForgotten(data), [data]);
  const current = data !== undefined && data === forgotten ? { ...fetcher, data: undefined } : fetcher;
  return { fetcher: current, forget };
}
