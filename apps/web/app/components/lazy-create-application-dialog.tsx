import { lazyDialog } from './lazy-dialog';

/** "Create application": its form and knowledge fields are not part of a page's first load. */
export const LazyCreateApplicationDialog = lazyDialog(() =>
  import('./create-application-dialog').then((m) => m.CreateApplicationDialog),
);
