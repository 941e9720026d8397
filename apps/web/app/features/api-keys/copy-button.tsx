import { useEffect, useState } from 'react';
import { CheckIcon, CopyIcon } from '../../components/icons';
import { Button, type ButtonProps } from '../../components/ui/button';
import { toast } from '../../lib/toast';

/**
 * Copies `value`; a check mark says so for a moment, and screen readers hear "Copied". The text
 * stays put, so what is seen remains part of the accessible name. The clipboard API needs a secure
 * context: served over plain http from another host it is missing, and the user is told to copy by
 * hand instead of being left with a button that does nothing.
 */
export function CopyButton({
  value,
  label,
  children,
  ...props
}: Omit<ButtonProps, 'onClick' | 'value'> & {
  value: string;
  /** Accessible name, starting with any visible text: e.g. "Copy API key" for a button showing "Copy". */
  label: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      toast.error('Could not copy', { description: 'Select the text and copy it with Ctrl+C (⌘C).' });
    }
  };

  return (
    <Button type="button" variant="outline" size="sm" aria-label={label} onClick={copy} {...props}>
      {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
      {children}
      <span role="status" className="sr-only">
        {copied ? 'Copied' : ''}
      </span>
    </Button>
  );
}
