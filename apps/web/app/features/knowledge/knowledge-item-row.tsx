import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { EllipsisIcon, EyeIcon, RefreshCwIcon, Trash2Icon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { cn } from '../../lib/utils';
import { ItemEnabledSwitch, OffBadge } from './item-enabled-switch';
import { ItemFreshness, ItemSchedule, SitePages, SiteProgress } from './item-freshness';
import { ItemStatusBadge } from './item-status-badge';
import { ItemTypeIcon } from './item-type-icon';
import { QaPairSummary } from './qa-pair-summary';
import { ReadWithOcrBadge } from './read-with-ocr-badge';

function describeSource(item: TKnowledgeItem): string | null {
  if (item.type === 'qa') return null;
  if (item.type === 'text') return item.size_bytes ? `Text · ${formatBytes(item.size_bytes)}` : 'Text';
  if (item.type === 'url') return item.title === item.source ? null : item.source;
  return [item.source, item.size_bytes ? formatBytes(item.size_bytes) : null].filter(Boolean).join(' · ');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One item: type, title, source, status with progress or failure reason, and its actions; a site import's root holds its `pages`. */
export function KnowledgeItemRow({ item, pages = [] }: { item: TKnowledgeItem; pages?: TKnowledgeItem[] }) {
  const fetcher = useFetcher();
  const [confirming, setConfirming] = useState(false);
  const busy = fetcher.state !== 'idle';
  const deleting = busy && fetcher.formData?.get('intent') === 'delete';
  const source = describeSource(item);
  const working = item.status === 'queued' || item.status === 'processing';
  // A file or text that failed on its own content (corrupt, encrypted …) fails the same way again.
  const canResync = item.status !== 'failed' || item.retryable;
  // A sitemap holds no passages of its own: its pages do.
  const previewable = item.status === 'ready' && !item.site?.sitemap;
  const resync = () => fetcher.submit({ intent: 'resync', item: item.uuid }, { method: 'post' });
  return (
    <li
      id={`item-${item.uuid}`}
      className="flex scroll-mt-20 flex-wrap items-start gap-3 px-4 py-3"
      data-item={item.uuid}
      aria-busy={deleting}
    >
      <ItemTypeIcon type={item.type} />
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          {/* Off: a muted title (text keeps its contrast, so not by opacity) and an "Off" badge. */}
          <span
            className={cn(
              'min-w-0 max-w-full truncate font-medium',
              !item.enabled && 'text-muted-foreground',
            )}
            title={item.title}
          >
            {item.title}
          </span>
          <ItemStatusBadge item={item} />
          {item.enabled ? null : <OffBadge />}
          {item.read_with_ocr ? <ReadWithOcrBadge /> : null}
        </div>
        {source ? <span className="truncate text-muted-foreground text-sm">{source}</span> : null}
        {item.qa ? <QaPairSummary item={item} /> : null}
        {item.status === 'processing' || item.status === 'queued' ? (
          <div
            role="progressbar"
            aria-label={`Indexing ${item.title}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={item.progress}
            className="h-1.5 w-full max-w-sm overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full bg-primary transition-[width]" style={{ width: `${item.progress}%` }} />
          </div>
        ) : null}
        {item.status === 'failed' && item.error ? (
          <p className="text-destructive text-sm" data-failure-reason>
            {item.error}
          </p>
        ) : null}
        {item.status === 'ready' && !item.site ? (
          <span className="text-muted-foreground text-xs">
            {item.chunk_count} {item.chunk_count === 1 ? 'passage' : 'passages'}
          </span>
        ) : null}
        {item.site ? <SiteProgress site={item.site} /> : null}
        <ItemFreshness item={item} />
        <ItemSchedule item={item} />
      </div>
      {/* The switch, then three labelled buttons from 640 px; below, the switch over one menu, so
          the title keeps the row's width. */}
      <div className="flex shrink-0 flex-col items-center gap-2 sm:flex-row sm:items-start sm:gap-3">
        <ItemEnabledSwitch item={item} className="mt-1.5" />
        <div className="hidden shrink-0 items-center gap-1 sm:flex">
          {previewable ? (
            <Button asChild variant="ghost" size="sm">
              <Link to={`?preview=${item.uuid}`} preventScrollReset aria-label={`Preview ${item.title}`}>
                <EyeIcon aria-hidden="true" />
                Preview
              </Link>
            </Button>
          ) : null}
          {canResync ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={busy || working}
              onClick={resync}
              aria-label={`Re-sync ${item.title}`}
            >
              <RefreshCwIcon aria-hidden="true" />
              Re-sync
            </Button>
          ) : null}
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="text-destructive hover:text-destructive"
            disabled={busy}
            onClick={() => setConfirming(true)}
            aria-label={`Delete ${item.title}`}
          >
            <Trash2Icon aria-hidden="true" />
            Delete
          </Button>
        </div>
        <div className="shrink-0 sm:hidden">
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="size-8" aria-label={`Actions for ${item.title}`}>
                <EllipsisIcon aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {previewable ? (
                <DropdownMenuItem asChild>
                  <Link to={`?preview=${item.uuid}`} preventScrollReset>
                    <EyeIcon aria-hidden="true" />
                    Preview
                  </Link>
                </DropdownMenuItem>
              ) : null}
              {canResync ? (
                <DropdownMenuItem disabled={busy || working} onSelect={resync}>
                  <RefreshCwIcon aria-hidden="true" />
                  Re-sync
                </DropdownMenuItem>
              ) : null}
              <DropdownMenuItem
                className="text-destructive"
                disabled={busy}
                onSelect={() => setConfirming(true)}
              >
                <Trash2Icon aria-hidden="true" />
                Delete
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
      <SitePages count={pages.length}>
        {pages.map((page) => (
          <KnowledgeItemRow key={page.uuid} item={page} />
        ))}
      </SitePages>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete “{item.title}”?</DialogTitle>
            <DialogDescription>
              The assistant will no longer find anything from it. The stored file and its passages are
              removed. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <fetcher.Form method="post" onSubmit={() => setConfirming(false)}>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="item" value={item.uuid} />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive">
                Delete
              </Button>
            </DialogFooter>
          </fetcher.Form>
        </DialogContent>
      </Dialog>
    </li>
  );
}
