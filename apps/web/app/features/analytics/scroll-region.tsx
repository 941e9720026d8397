import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';

/**
 * A box that scrolls on its own (a year of days, a wide table on a phone): a named region in the
 * tab order, so a keyboard can scroll it too (axe: scrollable-region-focusable).
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable to be scrolled by keyboard
      tabIndex={0}
      className={cn('overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
    >
      {children}
    </section>
  );
}
