import type * as React from 'react';
import { lazyModule } from '../../lib/lazy-module';
import { LazyRoot, livePart, liveTrigger } from './lazy-root';

/**
 * Radix dropdown menu, loaded when a menu is first opened (./dropdown-menu-impl); until then its
 * trigger is a plain button. Same parts and props as Radix's.
 */
const menuModule = lazyModule(() => import('./dropdown-menu-impl'));
type Impl = typeof import('./dropdown-menu-impl');

export function DropdownMenu({
  open,
  defaultOpen,
  onOpenChange,
  children,
  ...props
}: React.ComponentProps<Impl['DropdownMenu']>) {
  return (
    <LazyRoot
      module={menuModule}
      open={open}
      defaultOpen={defaultOpen}
      onOpenChange={onOpenChange}
      render={(m, live) => <m.DropdownMenu {...props} {...live} />}
    >
      {children}
    </LazyRoot>
  );
}

export const DropdownMenuTrigger = liveTrigger(menuModule, (m) => m.DropdownMenuTrigger, 'menu', 'press');
export const DropdownMenuContent = livePart(menuModule, (m) => m.DropdownMenuContent);
export const DropdownMenuGroup = livePart(menuModule, (m) => m.DropdownMenuGroup);
export const DropdownMenuSub = livePart(menuModule, (m) => m.DropdownMenuSub);
export const DropdownMenuRadioGroup = livePart(menuModule, (m) => m.DropdownMenuRadioGroup);
export const DropdownMenuItem = livePart(menuModule, (m) => m.DropdownMenuItem);
export const DropdownMenuRadioItem = livePart(menuModule, (m) => m.DropdownMenuRadioItem);
export const DropdownMenuCheckboxItem = livePart(menuModule, (m) => m.DropdownMenuCheckboxItem);
export const DropdownMenuLabel = livePart(menuModule, (m) => m.DropdownMenuLabel);
export const DropdownMenuSeparator = livePart(menuModule, (m) => m.DropdownMenuSeparator);
export const DropdownMenuSubTrigger = livePart(menuModule, (m) => m.DropdownMenuSubTrigger);
export const DropdownMenuSubContent = livePart(menuModule, (m) => m.DropdownMenuSubContent);
