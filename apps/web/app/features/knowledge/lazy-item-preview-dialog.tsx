import { lazyDialog } from '../../components/lazy-dialog';

/** An item's passages: the dialog and its markdown load when an item is first opened. */
export const LazyItemPreviewDialog = lazyDialog(() =>
  import('./item-preview-dialog').then((m) => m.ItemPreviewDialog),
);
