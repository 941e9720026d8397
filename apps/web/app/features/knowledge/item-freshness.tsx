import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import type { ReactNode } from 'react';
import { useFetcher } from 'react-router';
import { ChevronRightIcon } from '../../components/icons';
import { cn } from '../../lib/utils';
import { RelativeTime } from '../chat/relative-time';
import { REFRESH_CHOICES, SELECT } from './url-import-fields';

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
      ) : null}
    </p>
  );
}

/** Changes how often a web page (or a whole site, on its root) is checked; pages follow their site. */
export function ItemSchedule({ item }: { item: TKnowledgeItem }) {
  const fetcher = useFetcher();
  if (item.type !== 'url' || item.site_root) return null;
  const pending = fetcher.formData?.get('hours');
  const hours = typeof pending === 'string' ? pending : String(item.refresh_interval_hours ?? '');
  const known = REFRESH_CHOICES.some(([value]) => value === hours);
  return (
    <select
      aria-label={`Keep ${item.title} fresh`}
      value={hours}
      disabled={fetcher.state !== 'idle'}
      onChange={(e) =>
        fetcher.submit({ intent: 'schedule', item: item.uuid, hours: e.target.value }, { method: 'post' })
      }
      className={cn(SELECT, 'h-8 w-auto text-xs')}
    >
      {known ? null : <option value={hours}>Every {hours} hours</option>}
      {REFRESH_CHOICES.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </select>
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
