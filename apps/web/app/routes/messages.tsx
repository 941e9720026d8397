import type { TChatroomMessages, TSource } from '@cairn/contracts/chat';
import { isInProgress, senderIdentifierOf } from '@cairn/contracts/message-rules';
import { useEffect, useRef, useState } from 'react';
import { data, useNavigation, useParams } from 'react-router';
import { ExternalLinkIcon, MessageSquareIcon } from '../components/icons';
import { LoadErrorAlert } from '../components/load-error-alert';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import { Skeleton } from '../components/ui/skeleton';
import type { ChatroomState } from '../features/chat/chat-state';
import { CitationDialog } from '../features/chat/citation-dialog';
import { Composer } from '../features/chat/composer';
import { HandlingBar } from '../features/chat/handling-bar';
import { MessageItem } from '../features/chat/message-item';
import { useChat } from '../features/chat/use-chat';
import { apiFor } from '../lib/api.server';
import { ApiError } from '../lib/api-error';
import { NEW_CHAT_ID, NEW_CHAT_NAME } from '../lib/utils';
import type { Route } from './+types/messages';
import { useNavigationData } from './default-layout';

export const CHATROOM_FAILED = 'Failed to load chatroom';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.chatroom?.name ?? 'Chat'} · Cairn` },
];

/** `new_chat` is an empty local draft (no server call); any other chatroom loads its messages. */
export async function loader(args: Route.LoaderArgs) {
  const { appId, chatroomId } = args.params;
  if (chatroomId === NEW_CHAT_ID) {
    const draft: TChatroomMessages = {
      uuid: NEW_CHAT_ID,
      name: NEW_CHAT_NAME,
      source: 'web',
      handled_by: 'assistant',
      waiting_since: null,
      started_on: null,
      messages: [],
    };
    return { chatroom: draft, error: null };
  }
  try {
    const chatroom = await apiFor(args).get<TChatroomMessages>(
      `/api/applications/${appId}/chatrooms/${chatroomId}/messages/`,
    );
    return { chatroom, error: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data(null, { status: 404 });
    return { chatroom: null, error: CHATROOM_FAILED };
  }
}

const EMPTY: never[] = [];

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { appId, chatroomId } = useParams();
  const { user, selected, chatrooms } = useNavigationData();
  const navigation = useNavigation();
  const [citing, setCiting] = useState<TSource | null>(null);
  const listed = chatrooms.chatrooms.find((c) => c.uuid === chatroomId);
  const chat = useChat({
    appId,
    chatroomId,
    initial: loaderData.chatroom?.messages ?? EMPTY,
    senderIdentifier: senderIdentifierOf(user.id),
    room: roomStateOf(loaderData.chatroom),
    senderName: user.public_name,
  });
  const room = chat.room;
  const widgetRoom = room?.source === 'widget' ? room : null;
  const name = listed?.name ?? loaderData.chatroom?.name ?? NEW_CHAT_NAME;
  const loadingOther =
    navigation.state === 'loading' &&
    navigation.location.pathname !== `/applications/${appId}/messages/${chatroomId}` &&
    navigation.location.pathname.includes('/messages/');

  // Keep the newest message in view as answers stream in.
  const end = useRef<HTMLDivElement>(null);
  const last = chat.messages.at(-1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the last message grows
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [chat.messages.length, last?.message.length]);

  const inProgress = chat.messages.find((m) => !m.local && isInProgress(m));

  return (
    <div className="mx-auto flex min-h-[calc(100dvh-6.5rem)] max-w-3xl flex-col md:min-h-[calc(100dvh-4rem)]">
      <PageHeader
        title={name}
        description={widgetRoom ? <VisitorOrigin startedOn={widgetRoom.started_on} /> : selected?.name}
      />
      <div className="flex-1 pb-4">
        {loaderData.error ? (
          <LoadErrorAlert message={loaderData.error} />
        ) : loadingOther ? (
          <div className="grid gap-4" role="status" aria-busy="true" aria-label="Loading chatroom">
            <Skeleton className="ml-auto h-10 w-1/2" />
            <Skeleton className="h-24 w-5/6" />
            <Skeleton className="ml-auto h-10 w-1/3" />
          </div>
        ) : chat.messages.length === 0 ? (
          <EmptyState
            icon={<MessageSquareIcon />}
            title="Ask your knowledge"
            description={`Answers come from the knowledge of ${selected?.name ?? 'this application'}, with the passages they cite.`}
          />
        ) : (
          <ol className="grid gap-5" aria-label="Messages" aria-live="polite">
            {chat.messages.map((message) => (
              <MessageItem
                key={message.uuid}
                message={message}
                onCite={setCiting}
                onRetry={chat.retry}
                onStop={chat.stop}
                onRegenerate={chat.regenerate}
                onRate={chat.rate}
              />
            ))}
          </ol>
        )}
        {/* Clear of the sticky composer (and the handling bar above it in a visitor's conversation). */}
        <div ref={end} className={widgetRoom ? 'scroll-mb-60' : 'scroll-mb-36'} />
      </div>
      <div className="sticky bottom-0 grid gap-2 bg-background pt-2 pb-4">
        {widgetRoom ? <HandlingBar room={widgetRoom} busy={chat.handling} onHandle={chat.handle} /> : null}
        <Composer
          onSend={(text) => chat.send(text)}
          onStop={() => inProgress && chat.stop(inProgress.uuid)}
          busy={chat.busy}
          disabled={Boolean(loaderData.error)}
          placeholder={widgetRoom ? 'Reply to the visitor…' : `Message ${selected?.name ?? ''}…`}
          // A new chat has nothing to read yet: the next thing to do is to type.
          focusKey={chatroomId === NEW_CHAT_ID ? (appId ?? null) : null}
        />
      </div>
      {appId ? <CitationDialog appId={appId} source={citing} onClose={() => setCiting(null)} /> : null}
    </div>
  );
}

/** Who handles the loaded chatroom, as its messages answer says; none for a draft or a failed load. */
function roomStateOf(chatroom: TChatroomMessages | null): ChatroomState | null {
  if (!chatroom || chatroom.uuid === NEW_CHAT_ID) return null;
  const { uuid, source, handled_by, waiting_since, started_on } = chatroom;
  return { uuid, source, handled_by, waiting_since, started_on };
}

/** "Website visitor · on shop.example.com/pricing": the page the conversation started on, as a link. */
function VisitorOrigin({ startedOn }: { startedOn: string | null }) {
  let url: URL | null = null;
  try {
    url = startedOn ? new URL(startedOn) : null;
  } catch {
    url = null;
  }
  const safe = url && (url.protocol === 'https:' || url.protocol === 'http:') ? url : null;
  return (
    <span className="wrap-anywhere">
      Website visitor
      {safe ? (
        <>
          {' · started on '}
          <a
            href={safe.href}
            target="_blank"
            rel="noopener noreferrer"
            className="text-primary underline-offset-4 hover:underline"
          >
            {safe.host}
            {safe.pathname === '/' ? '' : safe.pathname}
            <ExternalLinkIcon className="ml-1 inline size-3.5 align-[-0.125em]" aria-hidden="true" />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </>
      ) : null}
    </span>
  );
}
