import { Dialog as DialogPrimitive } from 'radix-ui';
import type * as React from 'react';
import { cn } from '../../lib/utils';
import { XIcon } from '../icons';

/**
 * The Radix dialog itself, loaded when a dialog first opens (see ./dialog.tsx): traps focus while
 * open, returns it to the trigger on close, closes on Escape.
 */
export const Root = DialogPrimitive.Root;
export const Trigger = DialogPrimitive.Trigger;
export const Close = DialogPrimitive.Close;

type ContentProps = React.ComponentProps<typeof DialogPrimitive.Content>;

/** Overlay, panel and its close button: what a centred dialog and the drawer share. */
function Panel({
  overlayClassName,
  closeClassName,
  closeLabel,
  children,
  ...props
}: ContentProps & { overlayClassName: string; closeClassName: string; closeLabel: string }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClassName} />
      <DialogPrimitive.Content {...props}>
        {children}
        <DialogPrimitive.Close
          className={cn(
            'absolute rounded-xs opacity-70 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&_svg]:size-4',
            closeClassName,
          )}
        >
          <XIcon aria-hidden="true" />
          <span className="sr-only">{closeLabel}</span>
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function Content({ className, ...props }: ContentProps) {
  return (
    <Panel
      overlayClassName="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-in data-[state=open]:fade-in-0"
      className={cn(
        'fixed top-1/2 left-1/2 z-50 grid w-full max-w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 gap-4 rounded-lg border bg-background p-6 shadow-lg sm:max-w-lg',
        className,
      )}
      closeClassName="top-4 right-4 transition-opacity"
      closeLabel="Close"
      {...props}
    />
  );
}

export function Title({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-lg leading-none font-semibold', className)} {...props} />;
}
export function Description({
  className,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description className={cn('text-muted-foreground text-sm', className)} {...props} />
  );
}

/** The phone-width sidebar drawer: a dialog sliding in from the left. */
export function SheetContent({ className, ...props }: ContentProps) {
  return (
    <Panel
      overlayClassName="fixed inset-0 z-50 bg-black/50"
      className={cn(
        'fixed inset-y-0 left-0 z-50 flex h-full w-72 max-w-[85vw] flex-col border-r bg-sidebar text-sidebar-foreground shadow-lg',
        className,
      )}
      closeClassName="top-3 right-3 p-1"
      closeLabel="Close menu"
      {...props}
    />
  );
}
