import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { ChevronRightIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { RelativeTime } from '../chat/relative-time';

/** When a web page was last checked and changed, and when it is checked next (url items that were read). */
export function ItemFreshness({ item }: { item: TKnowledgeItem }) {
  if (item.type !== 'url' || (!item.last_checked_at && !item.next_check_at)) return null;
  return (
    <p className="flex flex-wrap gap-x-3 text-muted-foreground text-xs" data-freshness>
      {item.last_checked_at ? (
        <span>
          Checked <RelativeTime iso={item.last_checked_at} />
        </span>
      ) : null}
      {item.last_changed_at ? (
        <span>
          changed <RelativeTime iso={item.last_changed_at} />
        </span>
      ) : null}
      {item.next_check_at ? (
        <span>
          next check <RelativeTime iso={item.next_check_at} scheduled />
        </span>
      ) : item.refresh_interval_hours === null && !item.site_root ? (
        <span>not re-checked on a schedule</span>
      ) : null}
    </p>
  );
}

/** A site import's progress (found / fetched / indexed / failed), live through `kb_updates`. */
export function SiteProgress({ site }: { site: NonNullable<TKnowledgeItem['site']> }) {
  const parts: Array<[string, number]> = [
    ['found', site.found],
    ['fetched', site.fetched],
    ['indexed', site.indexed],
    ['failed', site.failed],
  ];
  return (
    <p className="flex flex-wrap gap-x-3 text-sm" data-site-progress aria-live="polite">
      {parts.map(([label, count]) => (
        <span key={label} className={label === 'failed' && count > 0 ? 'text-destructive' : undefined}>
          <span className="font-medium tabular-nums">{count}</span> {label}
        </span>
      ))}
    </p>
  );
}

/** A site import's pages under its root, folded until asked for (a site may have hundreds). */
export function SitePages({ count, children }: { count: number; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <details className="group basis-full sm:pl-11">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded-sm text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
        <ChevronRightIcon aria-hidden="true" className="size-4 transition-transform group-open:rotate-90" />
        {count === 1 ? '1 page' : `${count} pages`}
      </summary>
      <ul className="mt-2 divide-y rounded-lg border">{children}</ul>
    </details>
  );
}
