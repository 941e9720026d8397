import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { useId } from 'react';
import { Link } from 'react-router';
import { ItemStatusBadge } from '../knowledge/item-status-badge';

/** What each step of the ingestion means for the question (the badge shows the step itself). */
function meaning(item: TKnowledgeItem): string {
  switch (item.status) {
    case 'ready':
      return 'Indexed: the assistant answers this question from it now.';
    case 'failed':
      return `Could not be indexed${item.error ? `: ${item.error}` : ''}. Try again from the knowledge base.`;
    case 'processing':
      return 'Being indexed…';
    default:
      return 'Waiting to be indexed…';
  }
}

/**
 * The answers added from the inbox, with their ingestion as it happens (queued, processing, ready
 * or failed), under the questions they came from: the question's entry itself is gone once answered.
 */
export function AddedItems({ appId, items }: { appId: string; items: TKnowledgeItem[] }) {
  const titleId = useId();
  if (!items.length) return null;
  return (
    <div className="grid gap-3 rounded-xl border bg-muted/40 px-4 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 id={titleId} className="font-medium text-sm">
          Added to knowledge
        </h3>
        <Link
          to={`/applications/${appId}/knowledge-base`}
          className="text-sm underline underline-offset-4 hover:text-muted-foreground"
        >
          Open the knowledge base
        </Link>
      </div>
      <ul className="grid gap-3" aria-labelledby={titleId}>
        {items.map((item) => (
          <li key={item.uuid} className="grid gap-1" aria-label={item.title}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="min-w-0 text-sm wrap-anywhere">{item.title}</span>
              <ItemStatusBadge item={item} />
            </div>
            {/* Announced when the step changes; the badge's percentage would be too chatty. */}
            <p className="text-muted-foreground text-sm wrap-anywhere" aria-live="polite">
              {meaning(item)}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
