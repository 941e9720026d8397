import type { TKnowledgeItemDetail } from '@cairn/contracts/knowledge';
import type { TKnowledgeChunkPage } from '@cairn/contracts/knowledge-chunks';
import { useParams } from 'react-router';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { ItemChunks } from './item-chunks';
import { ItemEnabledSwitch, OffBadge } from './item-enabled-switch';

/** The item's page: the passages it was split into, as the assistant sees them, and its on/off switch. */
export function ItemPreviewDialog({
  open,
  item,
  chunks,
  onClose,
}: {
  /** Whether an item is shown (`item` not null); the lazy dialog waits for it to load. */
  open: boolean;
  item: TKnowledgeItemDetail | null;
  chunks: TKnowledgeChunkPage | null;
  onClose: () => void;
}) {
  const { appId = '' } = useParams();
  return (
    <Dialog open={open} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle className="flex min-w-0 flex-wrap items-center gap-2 pr-6">
            <span className="min-w-0 wrap-anywhere">{item?.title}</span>
            {item && !item.enabled ? <OffBadge /> : null}
          </DialogTitle>
          <DialogDescription>
            {item ? `${item.chunk_count} ${item.chunk_count === 1 ? 'passage' : 'passages'}. ` : null}
            {item?.enabled === false
              ? 'Off: search and answers leave this item out.'
              : 'On: search and answers use these passages.'}
          </DialogDescription>
        </DialogHeader>
        {item ? (
          <div className="flex items-center gap-2 text-sm">
            <ItemEnabledSwitch item={item} />
            <span aria-hidden="true">{item.enabled ? 'Used in answers' : 'Not used in answers'}</span>
          </div>
        ) : null}
        {item && chunks ? (
          <ItemChunks key={item.uuid} appId={appId} itemId={item.uuid} first={chunks} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
