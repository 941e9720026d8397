import { WEBHOOKS_MAX } from '@cairn/contracts/webhook-limits';
import { useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import { FetcherAnswer, useEverShown } from '../components/fetcher-answer';
import { CircleAlertIcon, PlusIcon, WebhookIcon } from '../components/icons';
import { PageHeader } from '../components/page-header';
import { Alert, AlertDescription, AlertTitle } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { EmptyState } from '../components/ui/empty-state';
import { ChatApps } from '../features/integrations/chat-apps';
import { chatAppsAction, isChatAppIntent, loadChatApps } from '../features/integrations/chat-apps.server';
import { DeliveryLogDialog } from '../features/integrations/delivery-log-dialog';
import { LazyWebhookDialog as WebhookDialog } from '../features/integrations/lazy-webhook-dialog';
import { deleteWebhookFetcherKey, WebhookCard } from '../features/integrations/webhook-card';
import {
  loadWebhooks,
  type WebhooksActionData,
  webhooksAction,
} from '../features/integrations/webhooks.server';
import { apiFor } from '../lib/api.server';
import { preloadOnIntent } from '../lib/lazy-module';
import { toast } from '../lib/toast';
import type { Route } from './+types/settings.integrations';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'Integrations · Settings · Cairn' }];

/** The webhooks (with `?log=<uuid>` that webhook's delivery log, shown in a dialog) and the chat apps. */
export async function loader(args: Route.LoaderArgs) {
  const api = apiFor(args);
  const [webhooks, chatApps] = await Promise.all([
    loadWebhooks(api, new URL(args.request.url).searchParams.get('log')),
    loadChatApps(api),
  ]);
  return { ...webhooks, ...chatApps };
}

export async function action(args: Route.ActionArgs) {
  const form = await args.request.formData();
  if (isChatAppIntent(form.get('intent'))) return chatAppsAction(apiFor(args), form);
  return webhooksAction(apiFor(args), form);
}

/** A list that could not be loaded, with a way to try again. */
function LoadFailed({ title, onRetry }: { title: string | null; onRetry: () => void }) {
  return (
    <Alert variant="destructive">
      <CircleAlertIcon aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <Button size="sm" variant="outline" className="mt-2" onClick={onRetry}>
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** Integrations (issue 11): outbound webhooks with their delivery log; Slack and Telegram. */
export default function SettingsIntegrations({ loaderData }: Route.ComponentProps) {
  const { webhooks, error, log, integrations, integrationsError } = loaderData;
  const { applications } = useNavigationData();
  const revalidator = useRevalidator();
  const [adding, setAdding] = useState(false);
  const listTitle = useRef<HTMLHeadingElement>(null);
  const shownWebhooks = useEverShown(webhooks, (webhook) => webhook.uuid);
  const atLimit = (webhooks?.length ?? 0) >= WEBHOOKS_MAX;
  const apps = applications.map((a) => ({ uuid: a.uuid, name: a.name }));
  const add = (
    <Button onClick={() => setAdding(true)} {...preloadOnIntent(WebhookDialog)} disabled={atLimit}>
      <PlusIcon aria-hidden="true" />
      Add webhook
    </Button>
  );

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="Integrations" description="Connect Cairn to the other tools you use." />
      <div className="grid gap-10">
        <section aria-labelledby="webhooks-title" className="grid gap-4">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div className="grid gap-1">
              <h2
                id="webhooks-title"
                ref={listTitle}
                tabIndex={-1}
                className="font-semibold text-lg outline-none"
              >
                Webhooks
              </h2>
              <p className="text-muted-foreground text-sm">
                Signed HTTP notifications when conversations, messages, feedback or knowledge change. Failed
                deliveries are retried for about three days.
              </p>
            </div>
            {webhooks?.length ? add : null}
          </div>
          {webhooks === null ? (
            <LoadFailed title={error} onRetry={() => revalidator.revalidate()} />
          ) : webhooks.length === 0 ? (
            <EmptyState
              icon={<WebhookIcon />}
              title="No webhooks yet"
              description="Add an endpoint of yours and choose events: Cairn sends each one as signed JSON, and retries when it fails."
              action={add}
            />
          ) : (
            <ul className="grid gap-4" aria-label="Webhooks">
              {webhooks.map((webhook) => (
                <WebhookCard
                  key={webhook.uuid}
                  webhook={webhook}
                  applications={apps}
                  focusAfterDelete={listTitle}
                />
              ))}
            </ul>
          )}
          {/* Told from here: another event may reload the list without the card before its answer. */}
          {shownWebhooks.map((webhook) => (
            <FetcherAnswer<WebhooksActionData>
              key={webhook.uuid}
              fetcherKey={deleteWebhookFetcherKey(webhook.uuid)}
              onAnswer={(answer) => {
                if (answer.intent !== 'delete' || !answer.ok) return;
                toast.success('Webhook deleted');
                listTitle.current?.focus();
              }}
            />
          ))}
          {atLimit ? (
            <p className="text-muted-foreground text-sm">
              You can have at most {WEBHOOKS_MAX} webhooks. Delete one to add another.
            </p>
          ) : null}
        </section>
        <section aria-labelledby="chat-apps-title" className="grid gap-4">
          <div className="grid gap-1">
            <h2 id="chat-apps-title" className="font-semibold text-lg">
              Chat apps
            </h2>
            <p className="text-muted-foreground text-sm">
              Your assistants, answering where your team already talks.
            </p>
          </div>
          {integrations === null ? (
            <LoadFailed title={integrationsError} onRetry={() => revalidator.revalidate()} />
          ) : (
            <ChatApps integrations={integrations} applications={apps} />
          )}
        </section>
      </div>
      <WebhookDialog open={adding} onOpenChange={setAdding} applications={apps} />
      <DeliveryLogDialog log={log} webhook={webhooks?.find((w) => w.uuid === log?.webhookId)} />
    </div>
  );
}
