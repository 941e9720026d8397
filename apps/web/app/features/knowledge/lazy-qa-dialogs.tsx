import { lazyDialog } from '../../components/lazy-dialog';

/** The Q&A forms (add or edit one pair, import a CSV) load when first opened, not with the page. */
export const LazyQaPairDialog = lazyDialog(() => import('./qa-pair-dialog').then((m) => m.QaPairDialog));

export const LazyQaImportDialog = lazyDialog(() =>
  import('./qa-import-dialog').then((m) => m.QaImportDialog),
);
