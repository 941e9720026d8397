import type { TChatroom } from '@cairn/contracts/chat';
import { CHATROOM_SOURCE_LABELS, type TChatroomSource } from '@cairn/contracts/chatroom-rules';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useFetcher, useLocation } from 'react-router';
import { ChatroomActions } from '../features/chat/chatroom-actions';
import { useLiveChatrooms } from '../features/chat/use-live-chatrooms';
import { NotificationBell } from '../features/notifications/notification-bell';
import type { Application, ChatroomList, ChatroomSummary, User } from '../lib/types';
import { cn, NEW_CHAT_ID } from '../lib/utils';
import { Brand } from './brand';
import {
  BellIcon,
  BookOpenIcon,
  BoxIcon,
  ChartColumnIcon,
  CheckIcon,
  ChevronsUpDownIcon,
  CpuIcon,
  GlobeIcon,
  InboxIcon,
  KeyRoundIcon,
  LayoutDashboardIcon,
  LayoutGridIcon,
  LogOutIcon,
  MessageSquareIcon,
  MessagesSquareIcon,
  PaletteIcon,
  PlugIcon,
  PlusIcon,
  SquarePenIcon,
  UserRoundIcon,
} from './icons';
import { LazyCreateApplicationDialog as CreateApplicationDialog } from './lazy-create-application-dialog';
import { ThemeMenuItems } from './theme-menu';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from './ui/dropdown-menu';

interface SidebarProps {
  user: User;
  applications: Application[];
  selected: Application | null;
  chatrooms: ChatroomList;
  /** Waiting visitors plus unanswered questions of the selected application (null: unknown). */
  attentionCount?: number | null;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4 [&_svg]:shrink-0',
    isActive && 'bg-sidebar-accent font-medium text-sidebar-accent-foreground',
  );

/** A list entry as the API sends it: widget chatrooms also say who handles them. */
type SidebarChatroom = ChatroomSummary & Partial<Pick<TChatroom, 'handled_by' | 'waiting_since'>>;

function SectionTitle({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <h2 id={id} className="flex items-center gap-2 px-2 pb-1 text-xs font-medium text-muted-foreground">
      {children}
    </h2>
  );
}

/** Sidebar content, shared by the desktop column and the phone drawer. */
export function AppSidebar({ user, applications, selected, chatrooms, attentionCount }: SidebarProps) {
  const [createOpen, setCreateOpen] = useState(false);
  const switcherRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  // The sidebar outlives page changes: a created application opens, so the dialog must close.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per navigation
  useEffect(() => setCreateOpen(false), [location.key]);
  const base = selected ? `/applications/${selected.uuid}` : null;
  const rooms: SidebarChatroom[] = useLiveChatrooms(selected?.uuid, chatrooms.chatrooms);
  const waiting = rooms.filter((room) => room.waiting_since).length;
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex h-14 items-center px-4">
        <Brand />
        <NotificationBell where="sidebar" className="ml-auto" />
      </div>
      <div className="px-3 pb-2">
        <ApplicationSwitcher
          ref={switcherRef}
          applications={applications}
          selected={selected}
          onCreate={() => setCreateOpen(true)}
        />
        <CreateApplicationDialog open={createOpen} onOpenChange={setCreateOpen} returnFocusTo={switcherRef} />
      </div>
      <nav aria-label="Main" className="flex min-h-0 flex-1 flex-col gap-5 overflow-y-auto px-3 py-2">
        {base ? (
          <section aria-labelledby="nav-app" className="grid gap-0.5">
            <SectionTitle id="nav-app">Application</SectionTitle>
            <NavLink to={base} end className={linkClass}>
              <LayoutDashboardIcon aria-hidden="true" />
              Overview
            </NavLink>
            <NavLink to={`${base}/attention`} className={linkClass}>
              <InboxIcon aria-hidden="true" />
              <span className="flex-1">Needs attention</span>
              {attentionCount ? (
                <span className="inline-flex min-w-5 items-center justify-center rounded-full bg-amber-500/15 px-1.5 text-xs leading-5 font-medium text-amber-800 tabular-nums dark:text-amber-300">
                  {attentionCount}
                  <span className="sr-only"> {attentionCount === 1 ? 'item' : 'items'}</span>
                </span>
              ) : null}
            </NavLink>
            <NavLink to={`${base}/conversations`} className={linkClass}>
              <MessagesSquareIcon aria-hidden="true" />
              Conversations
            </NavLink>
            <NavLink to={`${base}/analytics`} className={linkClass}>
              <ChartColumnIcon aria-hidden="true" />
              Analytics
            </NavLink>
            <NavLink to={`${base}/knowledge-base`} className={linkClass}>
              <BookOpenIcon aria-hidden="true" />
              Knowledge base
            </NavLink>
            <NavLink to={`${base}/api-keys-and-widget`} className={linkClass}>
              <KeyRoundIcon aria-hidden="true" />
              API keys &amp; widget
            </NavLink>
          </section>
        ) : null}
        {base ? (
          <section aria-labelledby="nav-chats" className="grid gap-0.5">
            <SectionTitle id="nav-chats">
              Chats
              {waiting > 0 ? (
                <span className="inline-flex items-center gap-1 rounded-full bg-amber-500/15 px-1.5 text-[0.625rem] leading-4 font-medium text-amber-800 dark:text-amber-300">
                  <span className="size-1.5 rounded-full bg-amber-500" aria-hidden="true" />
                  {waiting} waiting<span className="sr-only"> for a person</span>
                </span>
              ) : null}
            </SectionTitle>
            <NavLink to={`${base}/messages/${NEW_CHAT_ID}`} className={linkClass}>
              <SquarePenIcon aria-hidden="true" />
              New Chat
            </NavLink>
            {chatrooms.error ? (
              <p role="alert" className="px-2 py-1.5 text-sm text-destructive">
                {chatrooms.error}
              </p>
            ) : rooms.length === 0 ? (
              <p className="px-2 py-1.5 text-sm text-muted-foreground">No chats yet.</p>
            ) : (
              <ul className="grid min-w-0 gap-0.5" aria-label="Chatrooms">
                {rooms.map((room) => (
                  <li key={room.uuid} className="group relative min-w-0">
                    <NavLink to={`${base}/messages/${room.uuid}`} className={(s) => cn(linkClass(s), 'pr-9')}>
                      {room.source === 'widget' ? (
                        <GlobeIcon aria-hidden="true" />
                      ) : (
                        <MessageSquareIcon aria-hidden="true" />
                      )}
                      <span className="min-w-0 flex-1 truncate">{room.name}</span>
                      {room.waiting_since ? <WaitingBadge /> : <ChatroomSourceMarker source={room.source} />}
                    </NavLink>
                    {selected ? <ChatroomActions appId={selected.uuid} chatroom={room} /> : null}
                  </li>
                ))}
              </ul>
            )}
            {chatrooms.more ? (
              // The latest chats only (decision 105); the log finds any other by its words.
              <Link
                to={`${base}/conversations?source=web`}
                className="px-2 py-1.5 text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
              >
                All chats
              </Link>
            ) : null}
          </section>
        ) : null}
        <section aria-labelledby="nav-settings" className="grid gap-0.5">
          <SectionTitle id="nav-settings">Settings</SectionTitle>
          <NavLink to="/settings/models" className={linkClass}>
            <CpuIcon aria-hidden="true" />
            Models
          </NavLink>
          <NavLink to="/settings/integrations" className={linkClass}>
            <PlugIcon aria-hidden="true" />
            Integrations
          </NavLink>
          <NavLink to="/settings/notification-profile" className={linkClass}>
            <BellIcon aria-hidden="true" />
            Notification profile
          </NavLink>
          <NavLink to="/settings/account" className={linkClass}>
            <UserRoundIcon aria-hidden="true" />
            Account
          </NavLink>
        </section>
      </nav>
      <div className="border-t border-sidebar-border p-3">
        <UserMenu user={user} />
      </div>
    </div>
  );
}

/** Where a conversation came from, for the ones not started in this web app; the words are the label. */
function ChatroomSourceMarker({ source }: { source: TChatroomSource }) {
  if (source === 'web') return null;
  return (
    <span className="shrink-0 rounded border border-sidebar-border px-1 text-[0.625rem] leading-4 font-medium text-muted-foreground">
      <span className="sr-only">, via </span>
      {CHATROOM_SOURCE_LABELS[source]}
    </span>
  );
}

/** A visitor asked for a person and nobody has answered yet: amber, in words as well as colour. */
function WaitingBadge() {
  return (
    <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-500/15 px-1.5 text-[0.625rem] leading-4 font-medium text-amber-800 dark:text-amber-300">
      <span className="size-1.5 rounded-full bg-amber-500" aria-hidden="true" />
      <span className="sr-only">, via Widget, </span>
      Waiting<span className="sr-only"> for a person</span>
    </span>
  );
}

function ApplicationSwitcher({
  ref,
  applications,
  selected,
  onCreate,
}: {
  ref: React.Ref<HTMLButtonElement>;
  applications: Application[];
  selected: Application | null;
  onCreate: () => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        ref={ref}
        className="flex w-full items-center gap-2 rounded-md border border-sidebar-border bg-background px-2 py-1.5 text-left text-sm shadow-xs outline-none hover:bg-sidebar-accent focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="flex size-7 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground [&_svg]:size-4">
          <BoxIcon aria-hidden="true" />
        </span>
        <span className="min-w-0 flex-1">
          <span className="block text-xs text-muted-foreground">Application</span>
          <span className="block truncate font-medium">{selected?.name ?? 'None yet'}</span>
        </span>
        <span className="sr-only">Switch application</span>
        <ChevronsUpDownIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-(--radix-dropdown-menu-trigger-width) min-w-56">
        <DropdownMenuLabel className="text-xs text-muted-foreground">Applications</DropdownMenuLabel>
        {applications.map((app) => (
          <DropdownMenuItem key={app.uuid} asChild>
            <Link to={`/applications/${app.uuid}`}>
              <span className="truncate">{app.name}</span>
              {app.uuid === selected?.uuid ? <CheckIcon className="ml-auto" aria-label="selected" /> : null}
            </Link>
          </DropdownMenuItem>
        ))}
        {applications.length > 0 ? <DropdownMenuSeparator /> : null}
        {applications.length > 0 ? (
          <DropdownMenuItem asChild>
            <Link to="/">
              <LayoutGridIcon aria-hidden="true" />
              All applications
            </Link>
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem onSelect={onCreate}>
          <PlusIcon aria-hidden="true" />
          Create application
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function initials(user: User): string {
  const source = user.name.trim() || user.email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '')).toUpperCase() || '?';
}

function UserMenu({ user }: { user: User }) {
  const fetcher = useFetcher();
  const display = user.name.trim() || user.email;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm outline-none hover:bg-sidebar-accent focus-visible:ring-2 focus-visible:ring-ring">
        <span
          className="flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-xs font-medium"
          aria-hidden="true"
        >
          {initials(user)}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium">{display}</span>
          {user.name.trim() ? (
            <span className="block truncate text-xs text-muted-foreground">{user.email}</span>
          ) : null}
        </span>
        <span className="sr-only">Account menu</span>
        <ChevronsUpDownIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="start"
        side="top"
        className="w-(--radix-dropdown-menu-trigger-width) min-w-56"
      >
        <DropdownMenuLabel className="truncate font-normal text-muted-foreground">
          {user.email}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/settings/account">
            <UserRoundIcon aria-hidden="true" />
            Account
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSub>
          <DropdownMenuSubTrigger>
            <PaletteIcon aria-hidden="true" />
            Theme
          </DropdownMenuSubTrigger>
          <DropdownMenuSubContent className="w-44">
            <ThemeMenuItems />
          </DropdownMenuSubContent>
        </DropdownMenuSub>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => fetcher.submit(null, { method: 'post', action: '/logout' })}>
          <LogOutIcon aria-hidden="true" />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
