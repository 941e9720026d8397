import type { TKnowledgeItem } from '@cairn/contracts/knowledge';
import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { toast } from '../../lib/toast';
import { cn } from '../../lib/utils';

type SwitchResult = { switched?: string; enabled?: boolean; formError?: string | null };
/** Results already toasted: the row and the item's dialog share one fetcher, and one toast is enough. */
const told = new WeakSet<SwitchResult>();

/**
 * On/off for one item: off leaves it out of search and answers at once (its passages are kept, so
 * on again is immediate too). Shows the new state before the server answers, then a toast with
 * Undo; a failure shows the old state again and says why.
 */
export function ItemEnabledSwitch({ item, className }: { item: TKnowledgeItem; className?: string }) {
  const fetcher = useFetcher<SwitchResult>({ key: `switch-${item.uuid}` });
  const pending = fetcher.formData?.get('enabled');
  const enabled = pending === undefined || pending === null ? item.enabled : pending === 'true';
  const submit = (on: boolean) =>
    fetcher.submit({ intent: 'switch', item: item.uuid, enabled: String(on) }, { method: 'post' });
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== 'idle' || !result || told.has(result)) return;
    told.add(result);
    if (result.switched !== item.uuid) {
      toast.error(`“${item.title}” was not switched`, { description: result.formError ?? undefined });
      return;
    }
    const on = result.enabled === true;
    toast.success(on ? `“${item.title}” is on` : `“${item.title}” is off`, {
      description: on
        ? 'Search and answers use it again.'
        : 'Search and answers leave it out. Its passages are kept.',
      action: { label: 'Undo', onClick: () => submit(!on) },
    });
  });
  return (
    <button
      type="button"
      role="switch"
      aria-checked={enabled}
      aria-label={`Use ${item.title} in answers`}
      title={enabled ? 'On: used in search and answers' : 'Off: left out of search and answers'}
      onClick={() => submit(!enabled)}
      className={cn(
        'relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
        enabled ? 'bg-primary' : 'bg-input',
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'pointer-events-none block size-4 rounded-full bg-background shadow-sm ring-0 transition-transform',
          enabled ? 'translate-x-4' : 'translate-x-0',
        )}
      />
    </button>
  );
}

/** The item is switched off: said in words, not only by muting it. */
export function OffBadge() {
  return (
    <Badge variant="outline" className="text-muted-foreground">
      Off
    </Badge>
  );
}
