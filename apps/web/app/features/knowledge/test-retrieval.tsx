import type { TKnowledgeSearchResult } from '@cairn/contracts/knowledge-search';
import { SearchIcon } from 'lucide-react';
import { useId } from 'react';
import { useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import type { FormErrors } from '../../lib/api-error';

/** "Test retrieval": what the assistant would find for a question. */
export function TestRetrieval() {
  const fetcher = useFetcher<{ results?: TKnowledgeSearchResult[]; query?: string; errors?: FormErrors }>({
    key: 'test-retrieval',
  });
  const id = useId();
  const results = fetcher.data?.results;
  const busy = fetcher.state !== 'idle';
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border p-4 sm:p-6">
      <h2 id={`${id}-title`} className="mb-1 font-semibold text-lg">
        Test retrieval
      </h2>
      <p className="mb-4 text-muted-foreground text-sm">
        Ask a question to see the passages the assistant would use.
      </p>
      <fetcher.Form method="post" className="flex flex-col gap-2 sm:flex-row" role="search">
        <input type="hidden" name="intent" value="search" />
        <label htmlFor={`${id}-query`} className="sr-only">
          Question
        </label>
        <Input
          id={`${id}-query`}
          name="query"
          required
          maxLength={2000}
          placeholder="e.g. When is the wick replaced?"
        />
        <Button type="submit" disabled={busy} className="shrink-0">
          <SearchIcon aria-hidden="true" />
          {busy ? 'Searching…' : 'Search'}
        </Button>
      </fetcher.Form>
      <div className="mt-3">
        <FormError
          message={
            fetcher.data?.errors?.formError ??
            Object.values(fetcher.data?.errors?.fieldErrors ?? {})[0] ??
            null
          }
        />
      </div>
      {results ? (
        results.length === 0 ? (
          <p className="mt-4 text-muted-foreground text-sm" role="status">
            Nothing found for “{fetcher.data?.query}”.
          </p>
        ) : (
          <ol className="mt-4 grid gap-3" aria-label="Retrieved passages">
            {results.map((result, index) => (
              <li key={result.chunk_id} className="rounded-md border p-3 text-sm">
                <div className="mb-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
                  <span className="font-semibold text-foreground">
                    {index + 1}. {result.item_title}
                  </span>
                  {result.page ? <span className="text-muted-foreground">Page {result.page}</span> : null}
                  {result.heading ? <span className="text-muted-foreground">{result.heading}</span> : null}
                  <span className="ml-auto text-muted-foreground tabular-nums">
                    score {result.score.toFixed(3)}
                  </span>
                </div>
                <p className="line-clamp-6 whitespace-pre-wrap break-words">{result.content}</p>
              </li>
            ))}
          </ol>
        )
      ) : null}
    </section>
  );
}
