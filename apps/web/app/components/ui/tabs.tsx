import type * as React from 'react';
import { createContext, type KeyboardEvent, useContext, useId, useState } from 'react';
import { cn } from '../../lib/utils';

/**
 * Tabs (WAI-ARIA tabs with automatic activation, what Radix's did here): arrow keys, Home and End
 * move between tabs and show their panel, Tab moves into the panel. Our own since decision 091's
 * hweb3 amendment: Radix's tabs brought a 4.5 KB chunk (collection, roving focus) to the only page
 * that uses them. Only the active panel is rendered, as Radix did.
 */
interface TabsState {
  value: string;
  select: (value: string) => void;
  id: (value: string, part: 'tab' | 'panel') => string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error('Tabs parts belong inside <Tabs>');
  return state;
}

export function Tabs({
  defaultValue,
  className,
  children,
}: {
  defaultValue: string;
  className?: string;
  children: React.ReactNode;
}) {
  const [value, select] = useState(defaultValue);
  const base = useId();
  const id = (tab: string, part: 'tab' | 'panel') => `${base}-${part}-${tab}`;
  return (
    <TabsContext.Provider value={{ value, select, id }}>
      <div className={className}>{children}</div>
    </TabsContext.Provider>
  );
}

/** The next tab for a key, wrapping around at both ends (as Radix's roving focus loops). */
function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)')];
  const at = tabs.indexOf(event.target as HTMLButtonElement);
  if (at < 0) return;
  const next =
    event.key === 'ArrowRight'
      ? tabs[(at + 1) % tabs.length]
      : event.key === 'ArrowLeft'
        ? tabs[(at - 1 + tabs.length) % tabs.length]
        : event.key === 'Home'
          ? tabs[0]
          : event.key === 'End'
            ? tabs.at(-1)
            : undefined;
  if (!next) return;
  event.preventDefault();
  // Focusing a tab selects it (its onFocus).
  next.focus();
}

export function TabsList({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      onKeyDown={moveFocus}
      className={cn(
        'inline-flex h-9 w-fit max-w-full items-center overflow-x-auto rounded-lg bg-muted p-1 text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
}

export function TabsTrigger({
  value,
  className,
  ...props
}: Omit<React.ComponentProps<'button'>, 'value'> & { value: string }) {
  const tabs = useTabs();
  const active = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.id(value, 'tab')}
      aria-selected={active}
      aria-controls={tabs.id(value, 'panel')}
      data-state={active ? 'active' : 'inactive'}
      // One tab stop for the list: the active tab; arrow keys reach the others.
      tabIndex={active ? 0 : -1}
      onClick={() => tabs.select(value)}
      onFocus={() => tabs.select(value)}
      className={cn(
        'inline-flex h-full items-center justify-center gap-1.5 whitespace-nowrap rounded-md px-3 text-sm font-medium outline-none transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({
  value,
  className,
  ...props
}: Omit<React.ComponentProps<'div'>, 'value'> & { value: string }) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.id(value, 'panel')}
      aria-labelledby={tabs.id(value, 'tab')}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a tab panel is a tab stop (WAI-ARIA tabs), so Tab from the list reaches it even when it holds no control
      tabIndex={0}
      data-state="active"
      className={cn('outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
      {...props}
    />
  );
}
