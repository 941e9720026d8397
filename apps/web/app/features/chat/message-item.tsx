import type { TSource } from '@cairn/contracts/chat';
import { headingOf } from '@cairn/contracts/citations';
import { isConversationNotice } from '@cairn/contracts/conversation-notices';
import { ASSISTANT_SENDER, isInProgress } from '@cairn/contracts/message-rules';
import { useState } from 'react';
import {
  CheckIcon,
  CircleAlertIcon,
  CopyIcon,
  RefreshCwIcon,
  RotateCcwIcon,
  SquareIcon,
  ThumbsDownIcon,
  ThumbsUpIcon,
} from '../../components/icons';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { AnswerMarkdown } from './answer-markdown';
import { type ChatMessage, isVisitorMessage, senderNameOf } from './chat-state';
import { RelativeTime } from './relative-time';

interface Actions {
  onCite: (source: TSource) => void;
  onRetry: (message: ChatMessage) => void;
  onStop: (uuid: string) => void;
  onRegenerate: (uuid: string) => void;
  onRate: (uuid: string, feedback: 'up' | 'down' | null) => void;
}

export function MessageItem({ message, ...actions }: { message: ChatMessage } & Actions) {
  if (message.sender_identifier === ASSISTANT_SENDER) {
    if (isConversationNotice(message.metadata)) return <NoticeItem message={message} />;
    return <AnswerItem message={message} {...actions} />;
  }
  if (isVisitorMessage(message)) return <VisitorItem message={message} />;
  return <UserItem message={message} onRetry={actions.onRetry} />;
}

/**
 * The assistant telling the visitor about the conversation (nobody replied in time, handed back):
 * a line across the conversation, as the visitor sees it, with nothing to rate or regenerate.
 */
function NoticeItem({ message }: { message: ChatMessage }) {
  return (
    <li className="flex min-w-0 flex-col items-center gap-1 text-center" aria-label="Notice to the visitor">
      <p className="max-w-[85%] wrap-anywhere text-muted-foreground text-sm">{message.message}</p>
      <RelativeTime iso={message.created_at} className="text-muted-foreground text-xs" />
    </li>
  );
}

/** A website visitor's message: on the left, like any message not written here. */
function VisitorItem({ message }: { message: ChatMessage }) {
  return (
    <li className="flex min-w-0 flex-col items-start gap-1" aria-label="Visitor’s message">
      <span className="px-1 font-medium text-muted-foreground text-xs">Visitor</span>
      <div className="max-w-[85%] whitespace-pre-wrap wrap-anywhere rounded-2xl rounded-bl-sm bg-muted px-4 py-2 text-sm">
        {message.message}
      </div>
      <RelativeTime iso={message.created_at} className="px-1 text-muted-foreground text-xs" />
    </li>
  );
}

/** The owner's message; a reply to a website visitor carries the name the visitor sees. */
function UserItem({ message, onRetry }: { message: ChatMessage; onRetry: Actions['onRetry'] }) {
  const failed = message.local?.state === 'failed';
  const name = senderNameOf(message);
  return (
    <li
      className="flex min-w-0 flex-col items-end gap-1"
      aria-label={name ? `Your reply to the visitor, as ${name}` : 'Your message'}
    >
      {name ? (
        <span className="max-w-[85%] truncate px-1 font-medium text-muted-foreground text-xs">{name}</span>
      ) : null}
      <div
        className={cn(
          'max-w-[85%] whitespace-pre-wrap wrap-anywhere rounded-2xl rounded-br-sm bg-primary px-4 py-2 text-sm text-primary-foreground',
          message.local?.state === 'sending' && 'opacity-70',
          failed && 'bg-destructive/10 text-foreground ring-1 ring-destructive',
        )}
      >
        {message.message}
      </div>
      <div className="flex flex-wrap items-center justify-end gap-2 text-xs text-muted-foreground">
        {failed ? (
          <>
            <span className="flex items-center gap-1 text-destructive" role="alert">
              <CircleAlertIcon className="size-3.5" aria-hidden="true" />
              {message.local?.error ?? 'Not sent'}
            </span>
            <Button size="sm" variant="outline" className="h-7" onClick={() => onRetry(message)}>
              <RotateCcwIcon aria-hidden="true" />
              Retry
            </Button>
          </>
        ) : message.local?.state === 'sending' ? (
          <span>Sending…</span>
        ) : (
          <RelativeTime iso={message.created_at} />
        )}
      </div>
    </li>
  );
}

function AnswerItem({ message, onCite, onStop, onRegenerate, onRate }: { message: ChatMessage } & Actions) {
  const [copied, setCopied] = useState(false);
  const sources = (message.metadata.sources as TSource[] | undefined) ?? [];
  const error = message.metadata.error as string | undefined;
  const inProgress = isInProgress(message);
  const copy = async () => {
    await navigator.clipboard.writeText(message.message);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <li className="flex min-w-0 flex-col items-start gap-1.5" aria-label="Answer" aria-busy={inProgress}>
      <div className="w-full max-w-[95%] rounded-2xl rounded-bl-sm border bg-card px-4 py-3 text-card-foreground shadow-xs">
        {inProgress && !message.message ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <span className="size-2 animate-pulse rounded-full bg-primary" aria-hidden="true" />
            Thinking…
          </p>
        ) : (
          <AnswerMarkdown text={message.message} sources={sources} onCite={onCite} />
        )}
        {message.status === 'streaming' && message.message ? (
          <span
            className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-foreground/60 align-middle"
            aria-hidden="true"
          />
        ) : null}
        {message.status === 'failed' ? (
          <p role="alert" className="mt-2 flex items-start gap-1.5 text-sm text-destructive">
            <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {error ?? 'The answer failed.'}
          </p>
        ) : null}
        {message.status === 'stopped' ? <p className="mt-2 text-xs text-muted-foreground">Stopped.</p> : null}
        {sources.length > 0 && !inProgress ? (
          <div className="mt-3 border-t pt-2">
            <h3 className="mb-1 text-xs font-medium text-muted-foreground">Sources</h3>
            <ol className="grid gap-1">
              {sources.map((source) => (
                <li key={source.index} className="min-w-0">
                  <button
                    type="button"
                    onClick={() => onCite(source)}
                    className="flex w-full items-baseline gap-2 rounded px-1 py-0.5 text-left text-xs hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    <span className="font-medium text-primary">[{source.index}]</span>
                    <span className="line-clamp-2 min-w-0 wrap-anywhere">
                      {source.item_title}
                      {source.page !== null ? ` · p. ${source.page}` : ''}
                      {headingOf(source) ? ` · ${headingOf(source)}` : ''}
                    </span>
                  </button>
                </li>
              ))}
            </ol>
          </div>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
        {inProgress ? (
          <Button size="sm" variant="outline" className="h-7" onClick={() => onStop(message.uuid)}>
            <SquareIcon aria-hidden="true" />
            Stop
          </Button>
        ) : (
          <>
            <RelativeTime iso={message.updated_at} className="mr-1" />
            <Button size="icon" variant="ghost" className="size-7" onClick={copy} aria-label="Copy answer">
              {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
            </Button>
            <Button
              size="icon"
              variant="ghost"
              className="size-7"
              onClick={() => onRegenerate(message.uuid)}
              aria-label="Regenerate answer"
            >
              <RefreshCwIcon aria-hidden="true" />
            </Button>
            {/* Only a whole answer is rated: a failed or stopped one is regenerated instead. */}
            {message.status === 'complete' ? (
              <>
                <RateButton message={message} value="up" onRate={onRate} />
                <RateButton message={message} value="down" onRate={onRate} />
              </>
            ) : null}
          </>
        )}
      </div>
    </li>
  );
}

const RATINGS = {
  up: { label: 'Good answer', Icon: ThumbsUpIcon },
  down: { label: 'Bad answer', Icon: ThumbsDownIcon },
} as const;

/** Thumbs up or down: a toggle; pressing the chosen one again clears the rating. */
function RateButton({
  message,
  value,
  onRate,
}: { message: ChatMessage; value: 'up' | 'down' } & Pick<Actions, 'onRate'>) {
  const chosen = message.feedback === value;
  const { label, Icon } = RATINGS[value];
  return (
    <Button
      size="icon"
      variant="ghost"
      className={cn('size-7', chosen && 'text-primary')}
      aria-pressed={chosen}
      aria-label={label}
      onClick={() => onRate(message.uuid, chosen ? null : value)}
    >
      <Icon aria-hidden="true" fill={chosen ? 'currentColor' : 'none'} />
    </Button>
  );
}
