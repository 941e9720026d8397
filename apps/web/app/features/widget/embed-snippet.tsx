import { useEffect, useState } from 'react';
import { CheckIcon, CopyIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { toast } from '../../lib/toast';

/**
 * The one `<script>` tag to paste into the site, as the API writes it, with a copy button: a toast
 * and a check mark say "Copied". Without the clipboard API (plain http from another host) the user
 * is told to copy by hand.
 */
export function EmbedSnippet({ snippet }: { snippet: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied(true);
      toast.success('Copied', { description: 'Paste it into your site’s HTML.' });
    } catch {
      toast.error('Could not copy', { description: 'Select the code and copy it with Ctrl+C (⌘C).' });
    }
  };
  return (
    <figure className="min-w-0 overflow-hidden rounded-lg border">
      <div className="flex items-center justify-between gap-2 border-b bg-muted/50 py-1.5 pr-1.5 pl-3">
        <figcaption className="font-medium text-muted-foreground text-xs">Embed code</figcaption>
        <Button variant="ghost" size="sm" className="h-7" aria-label="Copy the embed code" onClick={copy}>
          {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          Copy
        </Button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <pre className="overflow-x-auto p-4 text-xs leading-relaxed" tabIndex={0}>
        <code>{snippet}</code>
      </pre>
    </figure>
  );
}
