import { KNOWLEDGE_LIMITS } from '@cairn/contracts/knowledge-limits';
import { useEffect, useId } from 'react';
import { useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import type { FormErrors } from '../../lib/api-error';
import { formatNumber } from '../../lib/format-number';
import { toast } from '../../lib/toast';

/** Imports Q&A pairs from a CSV file: all of them, or none with the bad rows named. */
export function QaImportDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const fetcher = useFetcher<{ errors?: FormErrors; imported?: number }>({ key: 'qa-import' });
  const id = useId();
  const busy = fetcher.state !== 'idle';
  const imported = fetcher.state === 'idle' ? fetcher.data?.imported : undefined;
  useEffect(() => {
    if (!imported) return;
    onOpenChange(false);
    toast.success(imported === 1 ? '1 Q&A pair imported' : `${imported} Q&A pairs imported`, {
      description: 'They answer as soon as they are indexed.',
    });
  }, [imported, onOpenChange]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Import Q&A pairs</DialogTitle>
          <DialogDescription>
            A CSV file with the question in the first column, the answer in the second and, optionally, other
            phrasings separated by <code>|</code> in the third. A header row is optional; at most{' '}
            {formatNumber(KNOWLEDGE_LIMITS.qaImportRows)} rows. If a row is wrong, nothing is imported and the
            row is named.
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" encType="multipart/form-data" className="grid gap-4">
          <input type="hidden" name="intent" value="qa-import" />
          <FormError message={fetcher.data?.errors?.formError ?? null} />
          <Field id={`${id}-file`} label="CSV file" error={fetcher.data?.errors?.fieldErrors.file}>
            {(aria) => <Input {...aria} type="file" name="file" accept=".csv,text/csv" required />}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Importing…' : 'Import'}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
