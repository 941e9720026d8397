import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';

/** What a fetcher of an action returning `T` holds once answered (`T` as serialized for the browser). */
type FetcherData<T> = NonNullable<ReturnType<typeof useFetcher<T>>['data']>;

/**
 * Calls `onAnswer` once when the answer of the fetcher keyed `fetcherKey` arrives.
 *
 * A page renders one for each row it has shown (see `useEverShown`), outside the rows: another
 * event may revalidate the page and remove the row that submitted (a deleted key, a dismissed
 * question) before that row's own answer arrives, and the row's effects then never run.
 */
export function FetcherAnswer<T>({
  fetcherKey,
  onAnswer,
}: {
  fetcherKey: string;
  onAnswer: (data: FetcherData<T>) => void;
}) {
  const { data } = useFetcher<T>({ key: fetcherKey });
  const latest = useRef(onAnswer);
  latest.current = onAnswer;
  useEffect(() => {
    if (data !== undefined && data !== null) latest.current(data);
  }, [data]);
  return null;
}

/** Every item the page has shown since it mounted, in its latest version: rows whose answers may still come. */
export function useEverShown<T>(items: readonly T[] | null | undefined, id: (item: T) => string): T[] {
  const shown = useRef(new Map<string, T>());
  for (const item of items ?? []) shown.current.set(id(item), item);
  return [...shown.current.values()];
}
