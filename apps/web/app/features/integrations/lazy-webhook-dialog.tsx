import { lazyDialog } from '../../components/lazy-dialog';

/** Adding or editing a webhook: its form (zod, react-hook-form) loads when the dialog first opens. */
export const LazyWebhookDialog = lazyDialog(() => import('./webhook-dialog').then((m) => m.WebhookDialog));
