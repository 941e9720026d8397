import type { ReactNode } from 'react';
import { cn } from '../lib/utils';

/** One label and value of a `<dl>` on a card (a key's last use, a webhook's events, a bot's status). */
export function DetailItem({
  label,
  children,
  truncate = false,
  wide = false,
}: {
  label: string;
  children: ReactNode;
  /** One line, cut with an ellipsis (short values such as dates); otherwise the value wraps. */
  truncate?: boolean;
  /** Takes the whole row of the list's grid. */
  wide?: boolean;
}) {
  return (
    <div className={cn('grid min-w-0 content-start gap-0.5', wide && 'col-span-full')}>
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className={cn('text-sm', truncate ? 'truncate' : 'min-w-0')}>{children}</dd>
    </div>
  );
}
