import type { TKnowledgeChunk, TKnowledgeChunkPage } from '@cairn/contracts/knowledge-chunks';
import { useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
import { Button } from '../../components/ui/button';
import { PassageMarkdown } from './passage-markdown';

/**
 * Every passage of an item as indexed, in order, with its heading and page: the first page comes
 * with the page, "Load more" fetches the next ones (keyset-paged by the API). Keyed by item by its
 * parent: a revalidation of the page (after switching the item) keeps what was loaded.
 */
export function ItemChunks({
  appId,
  itemId,
  first,
}: {
  appId: string;
  itemId: string;
  first: TKnowledgeChunkPage;
}) {
  const fetcher = useFetcher<TKnowledgeChunkPage | { formError: string }>();
  const [chunks, setChunks] = useState<TKnowledgeChunk[]>(first.chunks);
  const [cursor, setCursor] = useState(first.next_cursor);
  const page = fetcher.data;
  useEffect(() => {
    if (!page || !('chunks' in page)) return;
    // Keyed by id: a page that arrives twice (a revalidation) is not listed twice.
    setChunks((shown) => {
      const known = new Set(shown.map((c) => c.id));
      return [...shown, ...page.chunks.filter((c) => !known.has(c.id))];
    });
    setCursor(page.next_cursor);
  }, [page]);
  const loading = fetcher.state !== 'idle';
  if (first.total === 0)
    return <p className="text-muted-foreground text-sm">This item has no passages yet.</p>;
  return (
    <div className="grid gap-3">
      <ol className="grid gap-3" aria-label="Passages">
        {chunks.map((chunk) => (
          <li key={chunk.id} className="min-w-0 rounded-md border p-3" data-chunk={chunk.position}>
            <div className="mb-2 flex flex-wrap gap-x-2 gap-y-1 text-muted-foreground text-xs">
              <span className="tabular-nums">#{chunk.position + 1}</span>
              {chunk.page ? <span>Page {chunk.page}</span> : null}
              {chunk.heading ? <span className="min-w-0 wrap-anywhere">{chunk.heading}</span> : null}
            </div>
            <PassageMarkdown text={chunk.content} />
          </li>
        ))}
      </ol>
      {page && 'formError' in page ? <FormError message={page.formError} /> : null}
      {cursor !== null ? (
        <Button
          type="button"
          variant="outline"
          disabled={loading}
          onClick={() =>
            fetcher.load(
              `/applications/${appId}/knowledge-base/${itemId}/chunks?cursor=${encodeURIComponent(cursor)}`,
            )
          }
        >
          {loading ? 'Loading…' : `Load more (${chunks.length} of ${first.total} shown)`}
        </Button>
      ) : null}
    </div>
  );
}
