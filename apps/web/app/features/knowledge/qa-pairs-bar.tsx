import { useState } from 'react';
import { FileUpIcon, MessageSquarePlusIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import { preloadOnIntent } from '../../lib/lazy-module';
import { LazyQaImportDialog as QaImportDialog, LazyQaPairDialog as QaPairDialog } from './lazy-qa-dialogs';

/** Q&A pairs: questions the assistant answers with the owner's words; add one, or import a CSV. */
export function QaPairsBar() {
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  return (
    <section
      aria-labelledby="qa-pairs-title"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border p-4 sm:px-6"
    >
      <div className="grid min-w-0 gap-1">
        <h2 id="qa-pairs-title" className="font-semibold text-lg">
          Q&A pairs
        </h2>
        <p className="text-muted-foreground text-sm">
          Questions the assistant answers with your exact words.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => setAdding(true)} {...preloadOnIntent(QaPairDialog)}>
          <MessageSquarePlusIcon aria-hidden="true" />
          Add Q&A
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => setImporting(true)}
          {...preloadOnIntent(QaImportDialog)}
        >
          <FileUpIcon aria-hidden="true" />
          Import Q&A (CSV)
        </Button>
      </div>
      <QaPairDialog open={adding} onOpenChange={setAdding} />
      <QaImportDialog open={importing} onOpenChange={setImporting} />
    </section>
  );
}
