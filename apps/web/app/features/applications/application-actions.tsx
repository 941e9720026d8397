import { lazy, Suspense, useState } from 'react';
import { CopyIcon, EllipsisIcon, PencilIcon, Trash2Icon } from '../../components/icons';
import { Button } from '../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import type { Counts } from './application-dialogs';

const loadDialogs = () => import('./application-dialogs');
const RenameDialog = lazy(() => loadDialogs().then((m) => ({ default: m.RenameDialog })));
const DuplicateDialog = lazy(() => loadDialogs().then((m) => ({ default: m.DuplicateDialog })));
const DeleteDialog = lazy(() => loadDialogs().then((m) => ({ default: m.DeleteDialog })));

type Dialogs = 'rename' | 'duplicate' | 'delete';

/**
 * The "Manage" menu of an application (its Overview and its card in the applications list):
 * rename, duplicate (settings and knowledge) and delete, each in a dialog.
 */
export function ApplicationActions({
  application,
  counts,
  knowledgeItems,
  compact = false,
}: {
  application: { uuid: string; name: string };
  counts: Counts;
  /** The page's live item count (items added or deleted since it loaded), over `counts`' own. */
  knowledgeItems?: number;
  /** An icon button (a card in the list) instead of a labelled one (the page header). */
  compact?: boolean;
}) {
  const [dialog, setDialog] = useState<Dialogs | null>(null);
  const close = () => setDialog(null);
  return (
    <>
      {/* The dialogs load while the menu is open, so the one chosen opens without a wait. */}
      <DropdownMenu onOpenChange={(open) => open && void loadDialogs()}>
        <DropdownMenuTrigger asChild>
          <Button
            variant={compact ? 'ghost' : 'outline'}
            size={compact ? 'icon' : 'default'}
            aria-label={`Manage ${application.name}`}
          >
            <EllipsisIcon aria-hidden="true" />
            {compact ? null : 'Manage'}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => setDialog('rename')}>
            <PencilIcon aria-hidden="true" />
            Rename…
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setDialog('duplicate')}>
            <CopyIcon aria-hidden="true" />
            Duplicate…
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem className="text-destructive" onSelect={() => setDialog('delete')}>
            <Trash2Icon aria-hidden="true" />
            Delete…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Suspense fallback={null}>
        {dialog === 'rename' ? <RenameDialog application={application} onClose={close} /> : null}
        {dialog === 'duplicate' ? (
          <DuplicateDialog
            application={application}
            counts={counts}
            knowledgeItems={knowledgeItems}
            onClose={close}
          />
        ) : null}
        {dialog === 'delete' ? (
          <DeleteDialog
            application={application}
            counts={counts}
            knowledgeItems={knowledgeItems}
            onClose={close}
          />
        ) : null}
      </Suspense>
    </>
  );
}
