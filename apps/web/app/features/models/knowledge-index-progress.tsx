import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { Link } from 'react-router';

/**
 * How far (re-)indexing of the application's knowledge has come, from the live item list: shown
 * while any item is queued or processing, e.g. after the embedding model changed.
 */
export function KnowledgeIndexProgress({ items, appId }: { items: TKnowledgeItem[]; appId: string }) {
  const working = items.filter((i) => i.status === 'queued' || i.status === 'processing');
  if (!working.length) return null;
  const ready = items.filter((i) => i.status === 'ready').length;
  const failed = items.filter((i) => i.status === 'failed').length;
  const percent = Math.round(
    items.reduce((sum, i) => sum + (i.status === 'ready' || i.status === 'failed' ? 100 : i.progress), 0) /
      items.length,
  );
  return (
    <div className="grid gap-2 rounded-lg border p-4" role="status" aria-live="polite">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">
          Indexing knowledge: {ready} of {items.length} ready{failed ? `, ${failed} failed` : ''}
        </span>
        <Link
          to={`/applications/${appId}/knowledge-base`}
          className="text-muted-foreground underline underline-offset-4"
        >
          Details
        </Link>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-muted"
        role="progressbar"
        aria-label="Indexing progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
