import type * as React from 'react';
import { cn } from '../../lib/utils';

/** The honest "nothing here yet" panel: an icon, a title, a sentence and optionally an action. */
export function EmptyState({
  icon,
  title,
  description,
  action,
  className,
}: {
  icon?: React.ReactNode;
  title: string;
  description: React.ReactNode;
  action?: React.ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center',
        className,
      )}
    >
      {icon ? (
        <div className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground [&_svg]:size-6">
          {icon}
        </div>
      ) : null}
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="max-w-md text-muted-foreground text-sm">{description}</div>
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
