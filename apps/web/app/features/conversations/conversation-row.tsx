import { CHATROOM_SOURCE_LABELS } from '@cairn/contracts/chatroom-rules';
import type { TConversation } from '@cairn/contracts/conversations';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  CircleHelpIcon,
  HourglassIcon,
  MessageSquareIcon,
  ThumbsDownIcon,
  ThumbsUpIcon,
  UserRoundIcon,
} from '../../components/icons';
import { Badge } from '../../components/ui/badge';
import { RelativeTime } from '../chat/relative-time';

/** One conversation of the log: a link to its messages, with where it came from and what it holds. */
export function ConversationRow({ appId, conversation: c }: { appId: string; conversation: TConversation }) {
  const started = new Date(c.created_at);
  return (
    <li>
      <Link
        to={`/applications/${appId}/messages/${c.uuid}`}
        className="grid gap-2 px-4 py-3 outline-none hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring/40 md:grid-cols-[minmax(0,1fr)_auto] md:items-center md:gap-6"
      >
        <div className="grid min-w-0 gap-1">
          <p className="flex min-w-0 items-center gap-2">
            <span className="truncate font-medium">{c.name}</span>
            <Badge variant="secondary">{CHATROOM_SOURCE_LABELS[c.source]}</Badge>
            {c.waiting_since ? (
              <Badge className="bg-amber-500/15 text-amber-800 dark:text-amber-300" variant="outline">
                <HourglassIcon aria-hidden="true" />
                Waiting
              </Badge>
            ) : c.handled_by === 'human' ? (
              <Badge variant="outline">Taken over</Badge>
            ) : null}
          </p>
          <p className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-sm">
            {c.visitor ? (
              <span className="inline-flex min-w-0 items-center gap-1" title={c.visitor}>
                <UserRoundIcon className="size-3.5 shrink-0" aria-hidden="true" />
                <span className="sr-only">Visitor </span>
                <span className="max-w-[16rem] truncate">{c.visitor}</span>
              </span>
            ) : null}
            <span>
              Started{' '}
              <time dateTime={c.created_at} suppressHydrationWarning>
                {started.toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' })}
              </time>
            </span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm md:justify-end">
          <Count icon={<MessageSquareIcon />} label="messages" value={c.message_count} />
          {c.rating_up ? <Count icon={<ThumbsUpIcon />} label="rated good" value={c.rating_up} /> : null}
          {c.rating_down ? <Count icon={<ThumbsDownIcon />} label="rated bad" value={c.rating_down} /> : null}
          {c.not_covered_count ? (
            <Count icon={<CircleHelpIcon />} label="not covered" value={c.not_covered_count} />
          ) : null}
          <span className="text-muted-foreground">
            <span className="sr-only">Last activity </span>
            <RelativeTime iso={c.last_message_at} />
          </span>
        </div>
      </Link>
    </li>
  );
}

function Count({ icon, label, value }: { icon: ReactNode; label: string; value: number }) {
  return (
    <span
      title={`${value} ${label}`}
      className="inline-flex items-center gap-1 tabular-nums [&_svg]:size-3.5 [&_svg]:text-muted-foreground"
    >
      <span aria-hidden="true">{icon}</span>
      {value}
      <span className="sr-only"> {label}</span>
    </span>
  );
}
