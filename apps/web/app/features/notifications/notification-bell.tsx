import type { TNotification } from '@cairn/contracts/notifications';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { BellIcon, CheckCheckIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover';
import { useRealtime } from '../../lib/use-realtime';
import { cn } from '../../lib/utils';
import { RelativeTime } from '../chat/relative-time';
import { notificationsApi } from './notifications-api';

const DESKTOP = '(min-width: 768px)';

/**
 * The bell has two places: the sidebar from 768 px up, the phone header below. Both are in the DOM
 * at every width (one hidden by CSS), so only the one for the current width is mounted: one list
 * request and one socket. Decided in the browser: the server does not know the width.
 */
export function NotificationBell({ where, className }: { where: 'sidebar' | 'header'; className?: string }) {
  const [desktop, setDesktop] = useState<boolean | null>(null);
  useEffect(() => {
    const query = window.matchMedia(DESKTOP);
    const update = () => setDesktop(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  if (desktop === null || desktop !== (where === 'sidebar')) return null;
  return <BellPopover className={className} />;
}

/**
 * The in-app bell: unread count, the latest notifications in a popover, live through the socket's
 * `notification` event. Loaded in the browser (not by the layout's loader) so no page waits for it.
 */
function BellPopover({ className }: { className?: string }) {
  const [items, setItems] = useState<TNotification[]>([]);
  const [unread, setUnread] = useState(0);
  const [open, setOpen] = useState(false);

  const refresh = useCallback(async () => {
    try {
      const list = await notificationsApi.list();
      setItems(list.results);
      setUnread(list.unread_count);
    } catch {
      // The bell is secondary: a failed refresh keeps what it shows until the next event.
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  useRealtime('notification', {
    onEvent: (n) => {
      setItems((current) => [n, ...current.filter((c) => c.uuid !== n.uuid)].slice(0, 30));
      setUnread((count) => count + 1);
    },
    onReady: () => void refresh(),
  });

  const markRead = async (which: { uuids: string[] } | { all: true }) => {
    setItems((current) =>
      current.map((n) => ('all' in which || which.uuids.includes(n.uuid) ? { ...n, read: true } : n)),
    );
    try {
      setUnread((await notificationsApi.markRead(which)).unread_count);
    } catch {
      void refresh();
    }
  };

  const label = unread ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label} className={cn('relative', className)}>
          <BellIcon aria-hidden="true" />
          {unread ? (
            <span
              aria-hidden="true"
              className="absolute -top-0.5 -right-0.5 inline-flex min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[0.625rem] leading-4 font-semibold text-white tabular-nums"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        align="end"
        sideOffset={6}
        collisionPadding={8}
        aria-label="Notifications"
        className="z-50 w-[min(22rem,calc(100vw-1rem))] rounded-lg border bg-popover text-popover-foreground shadow-lg outline-none"
      >
        <div className="flex items-center justify-between gap-2 border-b px-3 py-2">
          <h2 className="text-sm font-semibold">Notifications</h2>
          <Button variant="ghost" size="sm" disabled={!unread} onClick={() => void markRead({ all: true })}>
            <CheckCheckIcon aria-hidden="true" />
            Mark all read
          </Button>
        </div>
        {items.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-muted-foreground">Nothing yet.</p>
        ) : (
          <ul className="max-h-[60vh] overflow-y-auto py-1" aria-label="Latest notifications">
            {items.map((n) => (
              <li key={n.uuid}>
                <NotificationLink
                  notification={n}
                  onOpen={() => {
                    setOpen(false);
                    if (!n.read) void markRead({ uuids: [n.uuid] });
                  }}
                />
              </li>
            ))}
          </ul>
        )}
        <div className="border-t px-3 py-2 text-right">
          <Link
            to="/settings/notification-profile"
            className="text-sm text-muted-foreground underline-offset-4 hover:underline"
            onClick={() => setOpen(false)}
          >
            Notification settings
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}

function NotificationLink({ notification: n, onOpen }: { notification: TNotification; onOpen: () => void }) {
  const body = (
    <>
      <span
        className={cn('mt-1.5 size-2 shrink-0 rounded-full', n.read ? 'bg-transparent' : 'bg-red-600')}
        aria-hidden="true"
      />
      <span className="grid min-w-0 gap-0.5">
        <span className={cn('text-sm', !n.read && 'font-medium')}>
          {n.title}
          {n.read ? null : <span className="sr-only"> (unread)</span>}
        </span>
        {n.body ? <span className="truncate text-xs text-muted-foreground">{n.body}</span> : null}
        <RelativeTime iso={n.created_at} className="text-xs text-muted-foreground" />
      </span>
    </>
  );
  const className =
    'flex w-full gap-2 px-3 py-2 text-left outline-none hover:bg-accent focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring';
  return n.link ? (
    <Link to={n.link} className={className} onClick={onOpen}>
      {body}
    </Link>
  ) : (
    <button type="button" className={className} onClick={onOpen}>
      {body}
    </button>
  );
}
