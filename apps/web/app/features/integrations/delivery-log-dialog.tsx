import type { TWebhook, TWebhookAttempt, TWebhookDelivery } from '@cairn/contracts/webhooks';
import { useEffect } from 'react';
import { useFetcher, useNavigate, useRevalidator } from 'react-router';
import { ChevronRightIcon, RotateCcwIcon } from '../../components/icons';
import { Alert, AlertTitle } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { toast } from '../../lib/toast';
import { RelativeTime } from '../chat/relative-time';
import type { DeliveryLog, WebhooksActionData } from './webhooks.server';

/** A pending delivery due this soon is waited for: the log refreshes itself until it is settled. */
const WATCH_WITHIN_MS = 30_000;
const REFRESH_MS = 1500;

const STATUS_LABEL = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' } as const;

function DeliveryStatus({ status }: { status: TWebhookDelivery['status'] }) {
  if (status === 'succeeded') return <Badge variant="secondary">{STATUS_LABEL[status]}</Badge>;
  if (status === 'failed')
    return (
      <Badge variant="outline" className="text-destructive">
        {STATUS_LABEL[status]}
      </Badge>
    );
  return <Badge variant="outline">{STATUS_LABEL[status]}</Badge>;
}

/**
 * The delivery log of one webhook (`?log=<uuid>` opens it): each delivery's event, state and next
 * attempt, opened for every attempt's time, duration, status code and answer, the body sent, and a
 * button that sends it again.
 */
export function DeliveryLogDialog({
  log,
  webhook,
}: {
  log: DeliveryLog | null;
  webhook: TWebhook | undefined;
}) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const open = Boolean(log && webhook);
  const watching =
    log?.deliveries.some(
      (d) =>
        d.status === 'pending' &&
        (!d.next_attempt_at || Date.parse(d.next_attempt_at) - Date.now() < WATCH_WITHIN_MS),
    ) ?? false;

  useEffect(() => {
    if (!watching || revalidator.state !== 'idle') return;
    const timer = setTimeout(() => void revalidator.revalidate(), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [watching, revalidator]);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) void navigate('.', { replace: true, preventScrollReset: true });
      }}
    >
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Delivery log</DialogTitle>
          <DialogDescription className="font-mono break-all">{webhook?.url}</DialogDescription>
        </DialogHeader>
        {log?.error ? (
          <Alert variant="destructive">
            <AlertTitle>{log.error}</AlertTitle>
          </Alert>
        ) : log && log.deliveries.length === 0 ? (
          <p className="rounded-xl border border-dashed px-6 py-8 text-center text-muted-foreground text-sm">
            Nothing sent yet. Send a test, or wait for one of the chosen events.
          </p>
        ) : (
          <ul className="grid gap-2" aria-label="Deliveries">
            {log?.deliveries.map((delivery) => (
              <DeliveryItem key={delivery.uuid} delivery={delivery} webhook={webhook!} />
            ))}
          </ul>
        )}
        {log && log.deliveries.length >= 50 ? (
          <p className="text-muted-foreground text-sm">The 50 newest deliveries are shown.</p>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function DeliveryItem({ delivery, webhook }: { delivery: TWebhookDelivery; webhook: TWebhook }) {
  const retry = useFetcher<WebhooksActionData>({ key: `retry-${delivery.uuid}` });
  useEffect(() => {
    const result = retry.data;
    if (!result) return;
    if (result.ok) toast.success('Sending again');
    else toast.error('Could not send it again', { description: result.errors.formError ?? undefined });
  }, [retry.data]);
  const last = delivery.attempts.at(-1);
  return (
    <li className="rounded-lg border">
      <details className="group">
        <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2.5 marker:hidden [&::-webkit-details-marker]:hidden">
          <ChevronRightIcon
            aria-hidden="true"
            className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90"
          />
          <span className="font-mono text-sm">{delivery.event_type}</span>
          <DeliveryStatus status={delivery.status} />
          <span className="text-muted-foreground text-sm">
            <RelativeTime iso={delivery.created_at} />
            {' · '}
            {delivery.attempt_count} attempt{delivery.attempt_count === 1 ? '' : 's'}
            {last?.status_code ? ` · HTTP ${last.status_code}` : ''}
            {delivery.next_attempt_at ? (
              <>
                {' · next '}
                <RelativeTime iso={delivery.next_attempt_at} scheduled />
              </>
            ) : null}
          </span>
        </summary>
        <div className="grid gap-3 border-t px-3 py-3">
          <p className="text-muted-foreground text-xs">
            webhook-id <span className="font-mono break-all">{delivery.message_id}</span>
          </p>
          {delivery.attempts.length ? (
            <ol className="grid gap-2" aria-label="Attempts">
              {delivery.attempts.map((attempt) => (
                <AttemptItem key={attempt.number} attempt={attempt} />
              ))}
            </ol>
          ) : (
            <p className="text-muted-foreground text-sm">No attempt yet.</p>
          )}
          <div className="grid gap-1">
            <span className="text-muted-foreground text-xs">Body sent</span>
            <pre className="max-h-60 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap break-all">
              {JSON.stringify(delivery.payload, null, 2)}
            </pre>
          </div>
          <retry.Form method="post">
            <input type="hidden" name="intent" value="retry" />
            <input type="hidden" name="webhookId" value={webhook.uuid} />
            <input type="hidden" name="deliveryId" value={delivery.uuid} />
            <Button
              type="submit"
              size="sm"
              variant="outline"
              disabled={!webhook.enabled || retry.state !== 'idle'}
            >
              <RotateCcwIcon aria-hidden="true" />
              {retry.state !== 'idle' ? 'Sending…' : 'Send again'}
            </Button>
          </retry.Form>
        </div>
      </details>
    </li>
  );
}

function AttemptItem({ attempt }: { attempt: TWebhookAttempt }) {
  return (
    <li className="grid gap-1 rounded-md bg-muted/50 px-3 py-2 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-medium">Attempt {attempt.number}</span>
        <span className={attempt.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-destructive'}>
          {attempt.status_code ? `HTTP ${attempt.status_code}` : 'No answer'}
        </span>
        <span className="text-muted-foreground">
          <RelativeTime iso={attempt.started_at} /> · {attempt.duration_ms.toLocaleString('en')} ms
        </span>
      </div>
      {attempt.error ? <p className="text-destructive wrap-anywhere">{attempt.error}</p> : null}
      {attempt.response_excerpt ? (
        <pre className="max-h-32 overflow-auto rounded bg-background p-2 font-mono text-xs whitespace-pre-wrap break-all">
          {attempt.response_excerpt}
        </pre>
      ) : null}
    </li>
  );
}
