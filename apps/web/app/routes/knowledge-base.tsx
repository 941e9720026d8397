import type { TKnowledgeItem, TKnowledgeItemDetail } from '@cairn/contracts/knowledge';
import type { TKnowledgeChunkPage } from '@cairn/contracts/knowledge-chunks';
import type { TKnowledgeSearchResponse } from '@cairn/contracts/knowledge-search';
import { useEffect, useRef } from 'react';
import { data, useFetcher, useNavigate, useSearchParams } from 'react-router';
import { BookOpenIcon } from '../components/icons';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import { AddKnowledge } from '../features/knowledge/add-knowledge';
import { KnowledgeItemRow } from '../features/knowledge/knowledge-item-row';
import { LazyItemPreviewDialog as ItemPreviewDialog } from '../features/knowledge/lazy-item-preview-dialog';
import { qaAction } from '../features/knowledge/qa-pairs.server';
import { QaPairsBar } from '../features/knowledge/qa-pairs-bar';
import { TestRetrieval } from '../features/knowledge/test-retrieval';
import { useLiveItems } from '../features/knowledge/use-kb-updates';
import { apiFor } from '../lib/api.server';
import { ApiError } from '../lib/api-error';
import { apiFailure, failure } from '../lib/form-data.server';
import { preloadOnIntent } from '../lib/lazy-module';
import { toast } from '../lib/toast';
import type { Route } from './+types/knowledge-base';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'Knowledge base · Cairn' }];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The items (with status) and, with `?preview=<item>`, one item's passages. */
export async function loader(args: Route.LoaderArgs) {
  const api = apiFor(args);
  const base = `/api/applications/${args.params.appId}/knowledge/`;
  const previewId = new URL(args.request.url).searchParams.get('preview');
  try {
    const previewed = previewId && UUID.test(previewId) ? previewId : null;
    const [items, preview, previewChunks] = await Promise.all([
      api.get<TKnowledgeItem[]>(base),
      previewed ? api.get<TKnowledgeItemDetail>(`${base}${previewed}/`).catch(notFoundAsNull) : null,
      previewed ? api.get<TKnowledgeChunkPage>(`${base}${previewed}/chunks/`).catch(notFoundAsNull) : null,
    ]);
    return { items, preview, previewChunks };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    throw error;
  }
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof ApiError && error.status === 404) return null;
  throw error;
}

/** Add (multipart items, forwarded as is), delete, re-sync, switch on or off, schedule and test retrieval. */
export async function action(args: Route.ActionArgs) {
  const api = apiFor(args);
  const base = `/api/applications/${args.params.appId}/knowledge/`;
  const form = await args.request.formData();
  const intent = form.get('intent');
  const item = String(form.get('item') ?? '');
  try {
    if (intent === 'add') {
      const body = new FormData();
      for (const [key, value] of form.entries()) if (key.startsWith('items[')) body.append(key, value);
      const added = await api.post<TKnowledgeItem[]>(base, body);
      return { added: added.length, first: added[0]?.uuid ?? null };
    }
    if (intent === 'delete' && UUID.test(item)) {
      await api.delete(`${base}${item}/`);
      return { deleted: item };
    }
    if (intent === 'resync' && UUID.test(item)) {
      await api.post(`${base}${item}/resync/`);
      return { resynced: item };
    }
    if (intent === 'switch' && UUID.test(item)) {
      const enabled = form.get('enabled') === 'true';
      await api.patch(`${base}${item}/`, { enabled });
      return { switched: item, enabled };
    }
    if (intent === 'qa-save' || intent === 'qa-import') return await qaAction(api, base, form);
    if (intent === 'schedule' && UUID.test(item)) {
      const hours = String(form.get('hours') ?? '');
      await api.patch(`${base}${item}/`, { refresh_interval_hours: hours ? Number(hours) : null });
      return { scheduled: item };
    }
    if (intent === 'search') {
      const query = String(form.get('query') ?? '').trim();
      if (!query) return failure({ fieldErrors: { query: 'Ask a question first.' }, formError: null });
      const found = await api.post<TKnowledgeSearchResponse>(`${base}search/`, { query, top_k: 5 });
      return { results: found.results, decision: found.decision, query };
    }
  } catch (error) {
    return apiFailure(error, []);
  }
  return failure({ fieldErrors: {}, formError: 'Unknown action.' });
}

export default function KnowledgeBase({ loaderData }: Route.ComponentProps) {
  const { selected } = useNavigationData();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const { items } = useLiveItems(selected?.uuid ?? '', loaderData.items);
  useAddedItemsShown(items);
  const preview = searchParams.get('preview') ? loaderData.preview : null;
  const counts = {
    ready: items.filter((i) => i.status === 'ready').length,
    working: items.filter((i) => i.status === 'queued' || i.status === 'processing').length,
    failed: items.filter((i) => i.status === 'failed').length,
  };
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader
        title="Knowledge base"
        description={
          items.length
            ? `${selected?.name ?? ''} · ${counts.ready} ready${counts.working ? `, ${counts.working} in progress` : ''}${counts.failed ? `, ${counts.failed} failed` : ''}`
            : selected?.name
        }
      />
      <AddKnowledge />
      <QaPairsBar />
      {/* An item opens in the preview dialog: its code loads as the pointer or focus reaches the list. */}
      <section
        aria-labelledby="kb-items-title"
        className="grid gap-3"
        {...preloadOnIntent(ItemPreviewDialog)}
      >
        <h2 id="kb-items-title" className="font-semibold text-lg">
          Items
        </h2>
        {items.length === 0 ? (
          <EmptyState
            icon={<BookOpenIcon />}
            title="No knowledge yet"
            description="Add files, a text, a web page or a Q&A pair: the assistant answers from what you add here."
          />
        ) : (
          <ul className="divide-y rounded-xl border" aria-live="polite">
            {items
              .filter((item) => !item.site_root)
              .map((item) => (
                <KnowledgeItemRow
                  key={item.uuid}
                  item={item}
                  pages={item.site ? items.filter((page) => page.site_root === item.uuid) : []}
                />
              ))}
          </ul>
        )}
      </section>
      <TestRetrieval />
      <ItemPreviewDialog
        open={preview != null}
        item={preview ?? null}
        chunks={loaderData.previewChunks}
        onClose={() => navigate('.', { replace: true, preventScrollReset: true })}
      />
    </div>
  );
}

/**
 * New items join the end of the list, often below the fold: say how many were added and bring the
 * first of them into view once the list shows it.
 */
function useAddedItemsShown(items: TKnowledgeItem[]) {
  const { data } = useFetcher<{ added?: number; first?: string | null }>({ key: 'add-knowledge' });
  const shown = useRef<unknown>(null);
  const present = Boolean(data?.first && items.some((item) => item.uuid === data.first));
  useEffect(() => {
    if (!data?.added || !data.first || !present || shown.current === data) return;
    shown.current = data;
    toast.success(data.added === 1 ? '1 item added' : `${data.added} items added`, {
      description: `${data.added === 1 ? 'It is' : 'They are'} indexed in the background; the list shows how far.`,
    });
    document.getElementById(`item-${data.first}`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [data, present]);
}
