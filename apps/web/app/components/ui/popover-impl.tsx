import { Popover } from 'radix-ui';
import type * as React from 'react';

/** The Radix popover itself, loaded when a popover is first opened (see ./popover.tsx). */
export const Root = Popover.Root;
export const Trigger = Popover.Trigger;

export function Content(props: React.ComponentProps<typeof Popover.Content>) {
  return (
    <Popover.Portal>
      <Popover.Content {...props} />
    </Popover.Portal>
  );
}
