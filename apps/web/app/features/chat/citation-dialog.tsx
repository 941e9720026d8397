import type { TSource } from '@cairn/contracts/chat';
import { headingOf } from '@cairn/contracts/citations';
import { Link } from 'react-router';
import { BookOpenIcon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';

/** The cited passage: its item, where in it, the text; and a way to the item in the knowledge base. */
export function CitationDialog({
  appId,
  source,
  onClose,
}: {
  appId: string;
  source: TSource | null;
  onClose: () => void;
}) {
  const where = source
    ? [headingOf(source), source.page !== null ? `Page ${source.page}` : null].filter(Boolean).join(' · ')
    : '';
  return (
    <Dialog open={source !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {source ? (
          <>
            <DialogHeader>
              <DialogTitle>
                [{source.index}] {source.item_title}
              </DialogTitle>
              <DialogDescription>{where || 'Cited passage'}</DialogDescription>
            </DialogHeader>
            <blockquote className="max-h-80 min-w-0 overflow-y-auto whitespace-pre-wrap wrap-anywhere rounded-md border-l-4 border-primary/40 bg-muted/50 p-3 text-sm">
              {source.snippet}
            </blockquote>
            <DialogFooter>
              <Button asChild variant="outline">
                <Link to={`/applications/${appId}/knowledge-base?preview=${source.item_uuid}`}>
                  <BookOpenIcon aria-hidden="true" />
                  Open in knowledge base
                </Link>
              </Button>
            </DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
