import type * as React from 'react';
import { cn } from '../../lib/utils';
import { Label } from './label';

interface FieldProps {
  /** id of the control; the label and error message are tied to it. */
  id: string;
  label: string;
  error?: string | undefined;
  description?: string;
  className?: string;
  /** Receives the aria attributes to spread on the control. */
  children: (aria: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby': string | undefined;
  }) => React.ReactNode;
}

/** A labelled form control with its description and error message, wired for screen readers. */
export function Field({ id, label, error, description, className, children }: FieldProps) {
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const describedBy = [description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy || undefined })}
      {description ? (
        <p id={descriptionId} className="text-muted-foreground text-sm">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-destructive text-sm" data-field-error>
          {error}
        </p>
      ) : null}
    </div>
  );
}
