import type { TConversation, TExportFormat } from '@cairn/contracts/conversations';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useFetcher, useNavigation, useRevalidator, useSearchParams } from 'react-router';
import { CircleAlertIcon, DownloadIcon, MessagesSquareIcon, SearchXIcon } from '../components/icons';
import { PageHeader } from '../components/page-header';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { EmptyState } from '../components/ui/empty-state';
import { ConversationFilters } from '../features/conversations/conversation-filters';
import { ConversationRow } from '../features/conversations/conversation-row';
import { type ConversationsData, loadConversations } from '../features/conversations/conversations.server';
import { filterParams } from '../features/conversations/filter-params';
import { apiFor } from '../lib/api.server';
import { cn } from '../lib/utils';
import type { Route } from './+types/conversations';
import { useNavigationData } from './default-layout';

const EXPORT_FORMATS: TExportFormat[] = ['csv', 'jsonl'];

export const meta: Route.MetaFunction = () => [{ title: 'Conversations · Cairn' }];

export async function loader(args: Route.LoaderArgs) {
  return loadConversations(apiFor(args), args.params.appId, new URL(args.request.url));
}

/**
 * The application's conversation log (issue 20 §1): every conversation from every channel, found by
 * words, source, date, rating and status, exported with the same filters (decision 065).
 */
export default function Conversations({ loaderData, params }: Route.ComponentProps) {
  const { selected } = useNavigationData();
  const [search] = useSearchParams();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const appId = params.appId;
  const base = `/applications/${appId}/conversations`;
  const filters = filterParams(search);
  const filtered = filters.size > 0;
  const exportHref = (format: TExportFormat) => {
    const query = new URLSearchParams(filters);
    query.set('format', format);
    return `/api/applications/${appId}/conversations/export/?${query}`;
  };

  let body: ReactNode;
  if (loaderData.page === null) {
    body = (
      <Alert variant="destructive">
        <CircleAlertIcon aria-hidden="true" />
        <AlertTitle>{loaderData.error}</AlertTitle>
        <AlertDescription>
          <div className="mt-2 flex gap-2">
            <Button size="sm" variant="outline" onClick={() => revalidator.revalidate()}>
              Try again
            </Button>
            {filtered ? (
              <Button size="sm" variant="ghost" asChild>
                <Link to={base}>Clear filters</Link>
              </Button>
            ) : null}
          </div>
        </AlertDescription>
      </Alert>
    );
  } else if (loaderData.page.results.length === 0 && !filtered) {
    body = (
      <EmptyState
        icon={<MessagesSquareIcon />}
        title="No conversations yet"
        description={
          <>
            Every conversation with this assistant is listed here: your own chats, and those from the public
            API, the website widget, Slack, Telegram and MCP clients (set them up under{' '}
            <Link to={`/applications/${appId}/api-keys-and-widget`} className="text-primary underline">
              API keys &amp; widget
            </Link>
            ). Try it in a{' '}
            <Link to={`/applications/${appId}/messages/new_chat`} className="text-primary underline">
              new chat
            </Link>
            .
          </>
        }
      />
    );
  } else if (loaderData.page.results.length === 0) {
    body = (
      <EmptyState
        icon={<SearchXIcon />}
        title="No conversation matches"
        description="Try other words, or fewer filters."
        action={
          <Button variant="outline" asChild>
            <Link to={base}>Clear filters</Link>
          </Button>
        }
      />
    );
  } else {
    body = (
      // Keyed by the filters: new filters start a new list, "Load more" appends to this one.
      <ConversationList key={filters.toString()} appId={appId} first={loaderData} search={filters} />
    );
  }

  const loading = navigation.state === 'loading' && navigation.location.pathname === base;
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Conversations"
        description={selected?.name}
        actions={EXPORT_FORMATS.map((format) => (
          <Button key={format} variant="outline" size="sm" asChild>
            <a href={exportHref(format)} download>
              <DownloadIcon aria-hidden="true" />
              Export {format.toUpperCase()}
            </a>
          </Button>
        ))}
      />
      <ConversationFilters search={search} clearTo={base} />
      <div aria-busy={loading} className={cn('mt-6', loading && 'opacity-60 transition-opacity')}>
        {loading ? (
          <p role="status" className="sr-only">
            Loading conversations…
          </p>
        ) : null}
        {body}
      </div>
    </div>
  );
}

function ConversationList({
  appId,
  first,
  search,
}: {
  appId: string;
  first: Extract<ConversationsData, { error: null }>;
  search: URLSearchParams;
}) {
  const more = useFetcher<ConversationsData>();
  // The pages "Load more" brought. A revalidation (a chat finishing elsewhere) brings a new first
  // page and keeps them: the list does not fall back to its first page under the reader's eyes.
  const [loaded, setLoaded] = useState<{ rows: TConversation[]; cursor: string | null } | null>(null);
  useEffect(() => {
    const page = more.data?.page;
    if (more.state !== 'idle' || !page) return;
    setLoaded((before) => ({ rows: [...(before?.rows ?? []), ...page.results], cursor: page.next_cursor }));
  }, [more.state, more.data]);
  const seen = new Set<string>();
  const rows = [...first.page.results, ...(loaded?.rows ?? [])].filter(
    (row) => !seen.has(row.uuid) && Boolean(seen.add(row.uuid)),
  );
  const cursor = loaded ? loaded.cursor : first.page.next_cursor;

  const loadMore = () => {
    if (!cursor) return;
    const query = new URLSearchParams(search);
    query.set('cursor', cursor);
    more.load(`/applications/${appId}/conversations?${query}`);
  };
  return (
    <div className="grid gap-4">
      <ul className="divide-y rounded-xl border" aria-label="Conversations">
        {rows.map((c) => (
          <ConversationRow key={c.uuid} appId={appId} conversation={c} />
        ))}
      </ul>
      {more.data?.error ? (
        <p role="alert" className="text-destructive text-sm">
          {more.data.error}
        </p>
      ) : null}
      {cursor ? (
        <Button
          variant="outline"
          className="justify-self-center"
          onClick={loadMore}
          disabled={more.state !== 'idle'}
        >
          {more.state !== 'idle' ? 'Loading…' : 'Load more'}
        </Button>
      ) : null}
    </div>
  );
}
