import type { ReactNode } from 'react';
import type { FetcherWithComponents } from 'react-router';
import { FormError } from './form-error';
import { Button } from './ui/button';
import { DialogFooter } from './ui/dialog';

/**
 * The end of a destructive confirmation dialog: the server's error if it refused, then a form that
 * posts `fields` (the action's intent and ids) with Cancel and the destructive button.
 */
export function ConfirmForm({
  fetcher,
  fields,
  error,
  onCancel,
  confirm,
  confirming,
}: {
  fetcher: FetcherWithComponents<unknown>;
  fields: Record<string, string>;
  error: string | null | undefined;
  onCancel: () => void;
  /** The button's words, e.g. "Delete key". */
  confirm: ReactNode;
  /** While the request is on its way, e.g. "Deleting…". */
  confirming: ReactNode;
}) {
  const busy = fetcher.state !== 'idle';
  return (
    <>
      <FormError message={error ?? null} />
      <fetcher.Form method="post">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={busy}>
            {busy ? confirming : confirm}
          </Button>
        </DialogFooter>
      </fetcher.Form>
    </>
  );
}
