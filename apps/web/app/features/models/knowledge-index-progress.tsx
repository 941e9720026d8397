import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { Link } from 'react-router';
import { CircleAlertIcon } from '../../components/icons';

/** Failed items listed by name on the card; the rest are counted. */
const FAILURES_SHOWN = 5;

/**
 * How far (re-)indexing of the application's knowledge has come, from the live item list: shown
 * while any item is queued or processing (e.g. after the embedding model changed), and afterwards
 * as long as an item failed: each failure with its reason and a link to it, until it is fixed or
 * deleted (a failure that vanished with the progress bar was missed).
 */
export function KnowledgeIndexProgress({ items, appId }: { items: TKnowledgeItem[]; appId: string }) {
  const working = items.filter((i) => i.status === 'queued' || i.status === 'processing');
  const failures = items.filter((i) => i.status === 'failed');
  if (!working.length && !failures.length) return null;
  const ready = items.filter((i) => i.status === 'ready').length;
  const percent = Math.round(
    items.reduce((sum, i) => sum + (i.status === 'ready' || i.status === 'failed' ? 100 : i.progress), 0) /
      items.length,
  );
  const knowledgeBase = `/applications/${appId}/knowledge-base`;
  return (
    <div className="grid gap-3 rounded-lg border p-4" data-knowledge-progress>
      <div className="grid gap-2" role="status" aria-live="polite">
        <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
          <span className="font-medium">
            {working.length ? 'Indexing knowledge' : 'Knowledge'}: {ready} of {items.length} ready
            {failures.length ? `, ${failures.length} failed` : ''}
          </span>
          <Link to={knowledgeBase} className="text-muted-foreground underline underline-offset-4">
            Details
          </Link>
        </div>
        {working.length ? (
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
        ) : null}
      </div>
      {failures.length ? (
        <ul className="grid gap-2 text-sm" aria-label="Failed knowledge items">
          {failures.slice(0, FAILURES_SHOWN).map((item) => (
            <li key={item.uuid} className="flex min-w-0 items-start gap-2">
              <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
              <span className="grid min-w-0 gap-0.5">
                <Link
                  to={`${knowledgeBase}#item-${item.uuid}`}
                  className="truncate font-medium underline underline-offset-4"
                  title={item.title}
                >
                  {item.title}
                </Link>
                <span className="text-muted-foreground">{item.error ?? 'Indexing failed.'}</span>
              </span>
            </li>
          ))}
          {failures.length > FAILURES_SHOWN ? (
            <li className="text-muted-foreground">
              and {failures.length - FAILURES_SHOWN} more in the{' '}
              <Link to={knowledgeBase} className="underline underline-offset-4">
                knowledge base
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
