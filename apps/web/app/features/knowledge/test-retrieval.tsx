import type { TKnowledgeSearchDecision, TKnowledgeSearchResult } from '@cairn/contracts/knowledge-search';
import { RELEVANCE_THRESHOLD } from '@cairn/contracts/knowledge-search-rules';
import { Suspense, useId } from 'react';
import { useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
import { CircleCheckIcon, CircleSlashIcon, SearchIcon } from '../../components/icons';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import type { FormErrors } from '../../lib/api-error';
import { lazyModule, preloadOnIntent } from '../../lib/lazy-module';
import { cn } from '../../lib/utils';

/** "Test retrieval": what the assistant would find for a question. */
/**
 * The passages' markdown renderer: loaded when the question box is first used, not with the page
 * (decision 091); the results wait for it, so they appear whole.
 */
const markdown = lazyModule(() => import('./passage-markdown'));

export function TestRetrieval() {
  const fetcher = useFetcher<{
    results?: TKnowledgeSearchResult[];
    decision?: TKnowledgeSearchDecision;
    query?: string;
    errors?: FormErrors;
  }>({ key: 'test-retrieval' });
  const id = useId();
  const results = fetcher.data?.results;
  const decision = fetcher.data?.decision;
  const busy = fetcher.state !== 'idle';
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border p-4 sm:p-6">
      <h2 id={`${id}-title`} className="mb-1 font-semibold text-lg">
        Test retrieval
      </h2>
      <p className="mb-4 text-muted-foreground text-sm">
        Ask a question to see the passages the assistant would find, how relevant each is, and whether it
        would answer.
      </p>
      <fetcher.Form
        method="post"
        className="flex flex-col gap-2 sm:flex-row"
        role="search"
        {...preloadOnIntent(markdown)}
      >
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
      {results && decision ? (
        <Suspense fallback={null}>
          <div className="mt-4 grid gap-3">
            <RetrievalDecision decision={decision} />
            {results.length === 0 ? (
              <p className="text-muted-foreground text-sm" role="status">
                Nothing found for “{fetcher.data?.query}”.
              </p>
            ) : (
              <ol className="grid gap-3" aria-label="Retrieved passages">
                {results.map((result, index) => (
                  <RetrievedPassage key={result.chunk_id} result={result} rank={index + 1} />
                ))}
              </ol>
            )}
          </div>
        </Suspense>
      ) : null}
      <details className="mt-4 text-muted-foreground text-sm">
        <summary className="cursor-pointer">How to read the results</summary>
        <p className="mt-2">
          <strong>Relevance</strong> (0–100) is how much of your question a passage holds: the share of the
          question’s words found in it, rarer words weighing more, averaged with the share found within two
          sentences next to each other. It rises a little when other passages found come from the same
          document, and falls a little when the passage is the only one of its document. Answers use a passage
          from {RELEVANCE_THRESHOLD} on (a little lower when an embedding model finds it very similar); when
          none reaches it, the question is declined as not covered. Passages are listed in search order.
        </p>
      </details>
    </section>
  );
}

/** What an answer to the question would do, in the answers' own terms. */
function RetrievalDecision({ decision }: { decision: TKnowledgeSearchDecision }) {
  return decision.answered ? (
    <p
      className="flex items-start gap-2 rounded-md border border-success/40 bg-success/10 p-3 text-sm"
      role="status"
    >
      <CircleCheckIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
      <span>
        <strong>Would be answered</strong> from the passages marked “Used”.
      </span>
    </p>
  ) : (
    <p className="flex items-start gap-2 rounded-md border bg-muted p-3 text-sm" role="status">
      <CircleSlashIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <span className="min-w-0 wrap-anywhere">
        <strong>Would be declined:</strong> the knowledge does not cover{' '}
        {decision.missing.length
          ? decision.missing.map((word) => `“${word}”`).join(', ')
          : 'enough of the question in one place'}
        .
      </span>
    </p>
  );
}

/** One passage: where it is from, its relevance as a number and a bar, whether answers use it, its text. */
function RetrievedPassage({ result, rank }: { result: TKnowledgeSearchResult; rank: number }) {
  return (
    <li className="min-w-0 rounded-md border p-3 text-sm" data-passage={result.chunk_id}>
      <div className="mb-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
        <span className="min-w-0 wrap-anywhere font-semibold text-foreground">
          {rank}. {result.item_title}
        </span>
        {result.page ? <span className="text-muted-foreground">Page {result.page}</span> : null}
        {result.heading ? (
          <span className="min-w-0 wrap-anywhere text-muted-foreground">{result.heading}</span>
        ) : null}
        <span className="ml-auto flex items-center gap-2">
          <span className="tabular-nums" title="Relevance, 0–100">
            <span className="sr-only">Relevance </span>
            {result.relevance}
            <span className="sr-only"> of 100</span>
          </span>
          <span aria-hidden="true" className="h-1.5 w-16 overflow-hidden rounded-full bg-muted">
            <span
              className={cn('block h-full', result.used ? 'bg-success' : 'bg-muted-foreground/50')}
              style={{ width: `${result.relevance}%` }}
            />
          </span>
          {result.used ? (
            <Badge variant="secondary" className="text-success">
              Used
            </Badge>
          ) : (
            <Badge variant="outline" className="text-muted-foreground">
              Not used
            </Badge>
          )}
        </span>
      </div>
      <div className="line-clamp-[12]">
        <Passage text={result.content} />
      </div>
    </li>
  );
}

function Passage({ text }: { text: string }) {
  const { PassageMarkdown } = markdown.useModule();
  return <PassageMarkdown text={text} />;
}
