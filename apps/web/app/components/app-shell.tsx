import { type ReactNode, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { NotificationBell } from '../features/notifications/notification-bell';
import type { Application, ChatroomList, User } from '../lib/types';
import { AppSidebar } from './app-sidebar';
import { Brand } from './brand';
import { MenuIcon } from './icons';
import { Button } from './ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from './ui/sheet';

interface AppShellProps {
  user: User;
  applications: Application[];
  selected: Application | null;
  chatrooms: ChatroomList;
  /** Waiting visitors plus unanswered questions of the selected application (null: unknown). */
  attentionCount?: number | null;
  children: ReactNode;
}

/** Sidebar beside the page from 768 px up; below that the sidebar is a drawer behind a menu button. */
export function AppShell({ children, ...nav }: AppShellProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the drawer whenever the page changes
  useEffect(() => setDrawerOpen(false), [location.key]);

  return (
    <div className="flex min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <aside
        className="sticky top-0 hidden h-dvh w-64 shrink-0 border-r border-sidebar-border bg-sidebar text-sidebar-foreground md:flex md:flex-col"
        aria-label="Sidebar"
      >
        <AppSidebar {...nav} />
      </aside>
      <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
        <SheetContent aria-describedby={undefined}>
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <SheetDescription className="sr-only">Applications, chats, pages and settings</SheetDescription>
          <AppSidebar {...nav} />
        </SheetContent>
      </Sheet>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur md:hidden">
          <Button
            variant="ghost"
            size="icon"
            aria-label="Open navigation"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <MenuIcon aria-hidden="true" />
          </Button>
          <Brand />
          {nav.selected ? (
            <span className="ml-auto truncate text-sm text-muted-foreground">{nav.selected.name}</span>
          ) : null}
          <NotificationBell where="header" className={nav.selected ? 'shrink-0' : 'ml-auto'} />
        </header>
        <main id="main" className="flex-1 px-4 py-6 sm:px-8 sm:py-8">
          {children}
        </main>
      </div>
    </div>
  );
}
