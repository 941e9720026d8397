import type * as React from 'react';
import { lazyModule } from '../../lib/lazy-module';
import { LazyRoot, livePart, liveTrigger } from './lazy-root';

/** Radix popover, loaded when first opened (./popover-impl); the content renders in a portal. */
const popoverModule = lazyModule(() => import('./popover-impl'));
type Impl = typeof import('./popover-impl');

export function Popover({
  open,
  defaultOpen,
  onOpenChange,
  children,
  ...props
}: React.ComponentProps<Impl['Root']>) {
  return (
    <LazyRoot
      module={popoverModule}
      open={open}
      defaultOpen={defaultOpen}
      onOpenChange={onOpenChange}
      render={(m, live) => <m.Root {...props} {...live} />}
    >
      {children}
    </LazyRoot>
  );
}

export const PopoverTrigger = liveTrigger(popoverModule, (m) => m.Trigger, 'dialog', 'click');
export const PopoverContent = livePart(popoverModule, (m) => m.Content);
