import type { TWebhook } from '@cairn/contracts/webhooks';
import { type RefObject, useEffect, useState } from 'react';
import { Link, useFetcher, useRevalidator } from 'react-router';
import { ConfirmForm } from '../../components/confirm-form';
import { DetailItem } from '../../components/detail-item';
import { FormError } from '../../components/form-error';
import {
  KeyRoundIcon,
  ListIcon,
  PauseIcon,
  PencilIcon,
  PlayIcon,
  SendIcon,
  Trash2Icon,
  WebhookIcon,
} from '../../components/icons';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { preloadOnIntent } from '../../lib/lazy-module';
import { toast } from '../../lib/toast';
import { useDialogFetcher } from '../../lib/use-dialog-fetcher';
import { RelativeTime } from '../chat/relative-time';
import { LazyWebhookDialog as WebhookDialog } from './lazy-webhook-dialog';
import { SecretReveal } from './secret-reveal';
import type { WebhooksActionData } from './webhooks.server';

export function WebhookStatus({ webhook }: { webhook: TWebhook }) {
  if (webhook.enabled) return <Badge variant="secondary">Active</Badge>;
  return (
    <Badge variant="outline" className="text-destructive">
      Disabled
    </Badge>
  );
}

/** How the last attempt went and, when it failed, why (the receiver's status, a refused connection …). */
function LastAttempt({ webhook }: { webhook: TWebhook }) {
  const last = webhook.last_delivery;
  if (!last) return <>None yet</>;
  const failed = last.status === 'failed';
  return (
    <>
      <span className={failed ? 'text-destructive' : undefined}>
        {failed ? 'Failed' : 'Succeeded'}
        {last.status_code ? ` (${last.status_code})` : ''}, <RelativeTime iso={last.at} />
      </span>
      {failed && last.error ? (
        <span className="block text-muted-foreground wrap-anywhere">{last.error}</span>
      ) : null}
    </>
  );
}

/**
 * After "Send test", the card reloads every few seconds until its last attempt changes (or half a
 * minute passes): the attempt happens in the background, and the card must not keep saying
 * "None yet" while the delivery log already shows it.
 */
function useRefreshUntilAttempted(webhook: TWebhook, testResult: WebhooksActionData | undefined) {
  const revalidator = useRevalidator();
  const lastAt = webhook.last_delivery?.at ?? null;
  const [waiting, setWaiting] = useState<{ from: string | null; until: number } | null>(null);
  // Only a new answer to "Send test" starts the wait (lastAt is read at that moment on purpose).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of lastAt alone must not restart it
  useEffect(() => {
    if (testResult?.ok) setWaiting({ from: lastAt, until: Date.now() + WAIT_FOR_ATTEMPT_MS });
  }, [testResult]);
  useEffect(() => {
    if (!waiting) return;
    if (lastAt !== waiting.from || Date.now() > waiting.until) {
      setWaiting(null);
      return;
    }
    if (revalidator.state !== 'idle') return;
    const timer = setTimeout(() => void revalidator.revalidate(), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [waiting, lastAt, revalidator]);
}

const REFRESH_MS = 2000;
const WAIT_FOR_ATTEMPT_MS = 30_000;

/** One webhook: where it sends, what, its state and last attempt, and everything that can be done to it. */
export function WebhookCard({
  webhook,
  applications,
  focusAfterDelete,
}: {
  webhook: TWebhook;
  applications: Array<{ uuid: string; name: string }>;
  focusAfterDelete: RefObject<HTMLElement | null>;
}) {
  const nameId = `webhook-${webhook.uuid}-url`;
  const application = webhook.application_uuid
    ? (applications.find((a) => a.uuid === webhook.application_uuid)?.name ?? 'An application')
    : 'All applications';
  const test = useFetcher<WebhooksActionData>({ key: `test-webhook-${webhook.uuid}` });
  const toggle = useFetcher<WebhooksActionData>({ key: `toggle-webhook-${webhook.uuid}` });
  const [editing, setEditing] = useState(false);
  useRefreshUntilAttempted(webhook, test.data);

  useEffect(() => {
    const result = test.data;
    if (!result) return;
    if (result.ok)
      toast.success('Test sent', { description: 'A webhook.ping is on its way: see the delivery log.' });
    else toast.error('Could not send a test', { description: result.errors.formError ?? undefined });
  }, [test.data]);
  useEffect(() => {
    const result = toggle.data;
    if (result && !result.ok) toast.error(result.errors.formError ?? 'Could not change the webhook');
  }, [toggle.data]);

  return (
    <li className="grid gap-4 rounded-xl border bg-card px-4 py-4 sm:px-5" aria-labelledby={nameId}>
      <div className="flex items-start gap-3">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground [&_svg]:size-4">
          <WebhookIcon aria-hidden="true" />
        </span>
        <div className="grid min-w-0 flex-1 gap-1">
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <span id={nameId} className="min-w-0 font-medium font-mono text-sm break-all">
              {webhook.url}
            </span>
            <WebhookStatus webhook={webhook} />
          </div>
          {webhook.description ? (
            <span className="text-muted-foreground text-sm wrap-anywhere">{webhook.description}</span>
          ) : null}
          {!webhook.enabled && webhook.disabled_reason ? (
            <p className="text-destructive text-sm">{webhook.disabled_reason}</p>
          ) : null}
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:ml-11 sm:grid-cols-3">
        <DetailItem label="Application">{application}</DetailItem>
        <DetailItem label="Last attempt">
          <LastAttempt webhook={webhook} />
        </DetailItem>
        <DetailItem label="Secret">
          {webhook.previous_secret_expires_at ? (
            <>
              Rotated; the old one signs until <RelativeTime iso={webhook.previous_secret_expires_at} />
            </>
          ) : (
            'Set'
          )}
        </DetailItem>
        <div className="col-span-full grid gap-1">
          <dt className="text-muted-foreground text-xs">Events</dt>
          <dd className="flex flex-wrap gap-1.5">
            {webhook.events.map((event) => (
              <Badge key={event} variant="outline" className="font-mono font-normal">
                {event}
              </Badge>
            ))}
          </dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-2 sm:ml-11">
        <test.Form method="post">
          <input type="hidden" name="intent" value="test" />
          <input type="hidden" name="webhookId" value={webhook.uuid} />
          <Button
            type="submit"
            size="sm"
            variant="outline"
            disabled={!webhook.enabled || test.state !== 'idle'}
          >
            <SendIcon aria-hidden="true" />
            {test.state !== 'idle' ? 'Sending…' : 'Send test'}
          </Button>
        </test.Form>
        <Button asChild size="sm" variant="outline">
          <Link to={`?log=${webhook.uuid}`} preventScrollReset aria-label={`Delivery log of ${webhook.url}`}>
            <ListIcon aria-hidden="true" />
            Delivery log
          </Link>
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => setEditing(true)}
          {...preloadOnIntent(WebhookDialog)}
          aria-label={`Edit ${webhook.url}`}
        >
          <PencilIcon aria-hidden="true" />
          Edit
        </Button>
        <toggle.Form method="post">
          <input type="hidden" name="intent" value={webhook.enabled ? 'disable' : 'enable'} />
          <input type="hidden" name="webhookId" value={webhook.uuid} />
          <Button type="submit" size="sm" variant="outline" disabled={toggle.state !== 'idle'}>
            {webhook.enabled ? <PauseIcon aria-hidden="true" /> : <PlayIcon aria-hidden="true" />}
            {webhook.enabled ? 'Disable' : 'Enable'}
          </Button>
        </toggle.Form>
        <RotateSecret webhook={webhook} />
        <DeleteWebhook webhook={webhook} focusAfterDelete={focusAfterDelete} />
      </div>
      <WebhookDialog open={editing} onOpenChange={setEditing} webhook={webhook} applications={applications} />
    </li>
  );
}

function RotateSecret({ webhook }: { webhook: TWebhook }) {
  const [open, setOpenState] = useState(false);
  const { fetcher, forget } = useDialogFetcher<WebhooksActionData>(`rotate-webhook-${webhook.uuid}`);
  const result = fetcher.data?.intent === 'rotate' ? fetcher.data : undefined;
  const rotated = result?.ok && result.intent === 'rotate' ? result.rotated : null;
  const busy = fetcher.state !== 'idle';
  const setOpen = (next: boolean) => {
    if (!next) forget();
    setOpenState(next);
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <KeyRoundIcon aria-hidden="true" />
          Rotate secret
        </Button>
      </DialogTrigger>
      <DialogContent
        className="sm:max-w-xl"
        onInteractOutside={(event) => {
          if (rotated) event.preventDefault();
        }}
      >
        <DialogHeader>
          <DialogTitle>{rotated ? 'Save the new signing secret' : 'Rotate the signing secret?'}</DialogTitle>
          <DialogDescription>
            {rotated ? (
              <>
                Both secrets sign every delivery until{' '}
                <RelativeTime iso={rotated.previous_secret_expires_at} />: switch your receiver to the new one
                before then.
              </>
            ) : (
              'Cairn makes a new secret. For 24 hours the old one keeps signing beside it (two signatures in webhook-signature), so your receiver can switch without missing a delivery.'
            )}
          </DialogDescription>
        </DialogHeader>
        {rotated ? (
          <>
            <SecretReveal
              id={`rotated-secret-${webhook.uuid}`}
              secret={rotated.secret}
              label="New signing secret"
            />
            <DialogFooter>
              <Button type="button" onClick={() => setOpen(false)}>
                Done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <fetcher.Form method="post">
            <FormError message={result && !result.ok ? result.errors.formError : null} />
            <input type="hidden" name="intent" value="rotate" />
            <input type="hidden" name="webhookId" value={webhook.uuid} />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy}>
                {busy ? 'Rotating…' : 'Rotate secret'}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        )}
      </DialogContent>
    </Dialog>
  );
}

function DeleteWebhook({
  webhook,
  focusAfterDelete,
}: {
  webhook: TWebhook;
  focusAfterDelete: RefObject<HTMLElement | null>;
}) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<WebhooksActionData>({ key: deleteWebhookFetcherKey(webhook.uuid) });
  const result = fetcher.data?.intent === 'delete' ? fetcher.data : undefined;
  // Closed as soon as the answer arrives; the page says so, as this card may already be gone.
  useEffect(() => {
    if (result?.ok) setOpen(false);
  }, [result]);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive">
          <Trash2Icon aria-hidden="true" />
          Delete
        </Button>
      </DialogTrigger>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!result?.ok) return;
          event.preventDefault();
          focusAfterDelete.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Delete this webhook?</DialogTitle>
          <DialogDescription className="wrap-anywhere">
            Cairn stops sending events to <span className="font-mono">{webhook.url}</span> at once, and its
            delivery log is deleted. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <ConfirmForm
          fetcher={fetcher}
          fields={{ intent: 'delete', webhookId: webhook.uuid }}
          error={result && !result.ok ? result.errors.formError : null}
          onCancel={() => setOpen(false)}
          confirm="Delete webhook"
          confirming="Deleting…"
        />
      </DialogContent>
    </Dialog>
  );
}

export const deleteWebhookFetcherKey = (uuid: string) => `delete-webhook-${uuid}`;
