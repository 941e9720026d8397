import type { TKnowledgeItemDetail } from '@cairn/contracts/knowledge';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';

/** The passages an item was split into, as the assistant will see them. */
export function ItemPreviewDialog({
  item,
  onClose,
}: {
  item: TKnowledgeItemDetail | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={item !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{item?.title}</DialogTitle>
          <DialogDescription>
            {item
              ? item.chunk_count > item.chunks.length
                ? `The first ${item.chunks.length} of ${item.chunk_count} passages.`
                : `${item.chunk_count} ${item.chunk_count === 1 ? 'passage' : 'passages'}.`
              : null}
          </DialogDescription>
        </DialogHeader>
        <ol className="grid gap-3">
          {item?.chunks.map((chunk, index) => (
            <li key={chunk.id} className="min-w-0 rounded-md border p-3 text-sm">
              <div className="mb-1 flex flex-wrap gap-2 text-muted-foreground text-xs">
                <span>#{index + 1}</span>
                {chunk.page ? <span>Page {chunk.page}</span> : null}
                {chunk.heading ? <span className="min-w-0 wrap-anywhere">{chunk.heading}</span> : null}
              </div>
              <p className="whitespace-pre-wrap wrap-anywhere">{chunk.content}</p>
            </li>
          ))}
        </ol>
      </DialogContent>
    </Dialog>
  );
}
