import type { THandledBy } from '@cairn/contracts/chat';
import { useEffect, useState } from 'react';
import { BotIcon, HandIcon, UserRoundIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { type ChatroomState, handlingOf } from './chat-state';
import { relativeFrom } from './relative-time';

/** "14:05 (3 minutes ago)", kept fresh; the full date is in the tooltip. */
function Since({ iso }: { iso: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={date.toLocaleString('en')} suppressHydrationWarning>
      {date.toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' })}{' '}
      {/* Out of the live region's words: a clock that ticks would be announced again and again. */}
      <span aria-hidden="true">({relativeFrom(iso, now)})</span>
    </time>
  );
}

/**
 * Who answers a website visitor right now, and the one switch the owner needs: take the
 * conversation over (the assistant falls silent) or hand it back. A visitor who asked for a person
 * is shown as waiting, in amber, until someone decides.
 */
export function HandlingBar({
  room,
  busy,
  onHandle,
}: {
  room: ChatroomState;
  busy: boolean;
  onHandle: (handledBy: THandledBy) => void;
}) {
  const handling = handlingOf(room);
  return (
    <section
      aria-label="Who answers"
      className={cn(
        'flex flex-wrap items-center justify-between gap-x-3 gap-y-2 rounded-xl border px-3 py-2 text-sm',
        handling === 'waiting' && 'border-amber-500/60 bg-amber-500/10',
        handling === 'human' && 'border-primary/30 bg-primary/5',
        handling === 'assistant' && 'bg-muted/40',
      )}
    >
      <p className="flex min-w-0 items-center gap-2" role="status">
        {handling === 'waiting' ? (
          <>
            <HandIcon className="size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
            <span>
              The visitor is waiting for a person since <Since iso={room.waiting_since!} />
            </span>
          </>
        ) : handling === 'human' ? (
          <>
            <UserRoundIcon className="size-4 shrink-0 text-primary" aria-hidden="true" />
            <span>You are handling this conversation</span>
          </>
        ) : (
          <>
            <BotIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span>The assistant is answering</span>
          </>
        )}
      </p>
      <div className="flex flex-wrap gap-2">
        {handling !== 'human' ? (
          <Button
            size="sm"
            variant={handling === 'waiting' ? 'default' : 'outline'}
            disabled={busy}
            onClick={() => onHandle('human')}
          >
            Take over
          </Button>
        ) : null}
        {handling !== 'assistant' ? (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => onHandle('assistant')}>
            Hand back to the assistant
          </Button>
        ) : null}
      </div>
    </section>
  );
}
