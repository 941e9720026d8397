import { Switch } from 'radix-ui';
import type * as React from 'react';
import { cn } from '../../lib/utils';

/**
 * An on/off setting: a Radix switch (role "switch", Space toggles it) with its label and what
 * the setting does. The whole row is the label, so it is easy to hit on a phone.
 */
export function SwitchField({
  id,
  label,
  description,
  checked,
  onCheckedChange,
  className,
}: {
  id: string;
  label: string;
  description?: React.ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  className?: string;
}) {
  const descriptionId = `${id}-description`;
  return (
    <div className={cn('flex items-start justify-between gap-4', className)}>
      <div className="grid min-w-0 gap-1">
        <label htmlFor={id} className="font-medium text-sm leading-5">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="text-muted-foreground text-sm">
            {description}
          </p>
        ) : null}
      </div>
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        aria-describedby={description ? descriptionId : undefined}
        className="peer inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent shadow-xs outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background data-[state=checked]:bg-primary data-[state=unchecked]:bg-muted-foreground/35"
      >
        <Switch.Thumb className="pointer-events-none block size-4 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-4 data-[state=unchecked]:translate-x-0" />
      </Switch.Root>
    </div>
  );
}
