import type { TCreatedWebhook, TWebhook } from '@cairn/contracts/webhooks';
import { useCallback, useEffect } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { useFetcher } from 'react-router';
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
import { useZodForm } from '../../lib/forms';
import { toast } from '../../lib/toast';
import { useDialogFetcher } from '../../lib/use-dialog-fetcher';
import { SecretReveal } from './secret-reveal';
import { WebhookFields, type WebhookFormValues } from './webhook-fields';
import { ZWebhookForm } from './webhook-form';
import type { WebhooksActionData } from './webhooks.server';

type Fetcher = ReturnType<typeof useFetcher<WebhooksActionData>>;

/**
 * Adds a webhook (then shows its secret, once) or edits one. Closing forgets the answer, so the
 * secret is gone from the page and from memory.
 */
export function WebhookDialog({
  open,
  onOpenChange,
  webhook,
  applications,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The webhook to edit; none: a new one. */
  webhook?: TWebhook;
  applications: Array<{ uuid: string; name: string }>;
}) {
  const { fetcher, forget } = useDialogFetcher<WebhooksActionData>(
    webhook ? `edit-webhook-${webhook.uuid}` : 'create-webhook',
  );
  const intent = webhook ? 'update' : 'create';
  const result = fetcher.data?.intent === intent ? fetcher.data : undefined;
  const created = result?.ok && result.intent === 'create' ? result.created : null;
  const setOpen = useCallback(
    (next: boolean) => {
      if (!next) forget();
      onOpenChange(next);
    },
    [forget, onOpenChange],
  );

  useEffect(() => {
    if (result?.ok && result.intent === 'update') {
      toast.success('Webhook saved');
      setOpen(false);
    }
  }, [result, setOpen]);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent
        className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl"
        // The secret is shown only here: a stray click beside the dialog must not throw it away.
        onInteractOutside={(event) => {
          if (created) event.preventDefault();
        }}
      >
        {created ? (
          <CreatedWebhook created={created} onDone={() => setOpen(false)} />
        ) : open ? (
          <WebhookForm
            fetcher={fetcher}
            webhook={webhook}
            applications={applications}
            errors={result && !result.ok ? result.errors : null}
            onCancel={() => setOpen(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function WebhookForm({
  fetcher,
  webhook,
  applications,
  errors,
  onCancel,
}: {
  fetcher: Fetcher;
  webhook: TWebhook | undefined;
  applications: Array<{ uuid: string; name: string }>;
  errors: Extract<WebhooksActionData, { ok: false }>['errors'] | null;
  onCancel: () => void;
}) {
  const { form } = useZodForm(async () => ZWebhookForm, {
    defaultValues: {
      url: webhook?.url ?? '',
      events: webhook?.events ?? ['message.created'],
      application_uuid: webhook?.application_uuid ?? '',
      description: webhook?.description ?? '',
    },
    serverErrors: errors,
  });
  const busy = fetcher.state !== 'idle';
  const idPrefix = webhook ? `webhook-${webhook.uuid}` : 'new-webhook';
  return (
    <>
      <DialogHeader>
        <DialogTitle>{webhook ? 'Edit webhook' : 'Add a webhook'}</DialogTitle>
        <DialogDescription>
          Cairn sends the events you choose to your endpoint, signed with a secret so you can check they are
          Cairn’s.
        </DialogDescription>
      </DialogHeader>
      <fetcher.Form
        method="post"
        noValidate
        className="grid gap-5"
        onSubmit={(event) => {
          const element = event.currentTarget;
          void form.handleSubmit(() => fetcher.submit(element, { method: 'post' }))(event);
        }}
      >
        <input type="hidden" name="intent" value={webhook ? 'update' : 'create'} />
        {webhook ? <input type="hidden" name="webhookId" value={webhook.uuid} /> : null}
        <FormError message={errors?.formError} />
        <WebhookFields
          idPrefix={idPrefix}
          register={form.register as unknown as UseFormRegister<WebhookFormValues>}
          errors={form.formState.errors as FieldErrors<WebhookFormValues>}
          applications={applications}
        />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : webhook ? 'Save' : 'Add webhook'}
          </Button>
        </DialogFooter>
      </fetcher.Form>
    </>
  );
}

function CreatedWebhook({ created, onDone }: { created: TCreatedWebhook; onDone: () => void }) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>Save your signing secret</DialogTitle>
        <DialogDescription className="wrap-anywhere">
          The webhook to {created.url} is ready. Send a test from its card once your receiver has the secret.
        </DialogDescription>
      </DialogHeader>
      <SecretReveal id="created-webhook-secret" secret={created.secret} label="Signing secret" />
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </>
  );
}
