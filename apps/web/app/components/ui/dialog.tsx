import type * as React from 'react';
import { lazyModule } from '../../lib/lazy-module';
import { cn } from '../../lib/utils';
import { LazyRoot, livePart, liveTrigger } from './lazy-root';

/**
 * Radix dialog, loaded when a dialog first opens (./dialog-impl): traps focus while open, returns it
 * to the trigger on close, closes on Escape. Same parts and props as Radix's.
 */
export const dialogModule = lazyModule(() => import('./dialog-impl'));
type Impl = typeof import('./dialog-impl');

export function Dialog({
  open,
  defaultOpen,
  onOpenChange,
  children,
  ...props
}: React.ComponentProps<Impl['Root']>) {
  return (
    <LazyRoot
      module={dialogModule}
      open={open}
      defaultOpen={defaultOpen}
      onOpenChange={onOpenChange}
      render={(m, live) => <m.Root {...props} {...live} />}
    >
      {children}
    </LazyRoot>
  );
}

export const DialogTrigger = liveTrigger(dialogModule, (m) => m.Trigger, 'dialog', 'click');
export const DialogClose = livePart(dialogModule, (m) => m.Close);
export const DialogContent = livePart(dialogModule, (m) => m.Content);
export const DialogTitle = livePart(dialogModule, (m) => m.Title);
export const DialogDescription = livePart(dialogModule, (m) => m.Description);

export function DialogHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-2 text-center sm:text-left', className)} {...props} />;
}
export function DialogFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
  );
}
