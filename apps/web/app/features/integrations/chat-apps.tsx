import type { TIntegration, TIntegrationKind } from '@cairn/contracts/integrations';
import { useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import { ConfirmForm } from '../../components/confirm-form';
import { DetailItem } from '../../components/detail-item';
import { FetcherAnswer, useEverShown } from '../../components/fetcher-answer';
import { FileJsonIcon, MessageSquareIcon, PlusIcon, SendIcon, Trash2Icon } from '../../components/icons';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { toast } from '../../lib/toast';
import { CopyButton } from '../api-keys/copy-button';
import { RelativeTime } from '../chat/relative-time';
import type { ChatAppsActionData } from './chat-apps.server';
import { ConnectChatAppDialog } from './connect-chat-app-dialog';
import { SlackManifestBlock } from './slack-manifest-block';

type Applications = Array<{ uuid: string; name: string }>;

const KINDS: Array<{ kind: TIntegrationKind; name: string; icon: typeof SendIcon; text: string }> = [
  {
    kind: 'slack',
    name: 'Slack',
    icon: MessageSquareIcon,
    text: 'Answers when mentioned or messaged directly, in the thread, with its sources and thumbs up and down buttons.',
  },
  {
    kind: 'telegram',
    name: 'Telegram',
    icon: SendIcon,
    text: 'Your assistant as a Telegram bot: /start greets, every question is answered with its sources.',
  },
];

/** The chat apps section: a card per kind with its connections and a connect button. */
export function ChatApps({
  integrations,
  applications,
}: {
  integrations: TIntegration[];
  applications: Applications;
}) {
  const [connecting, setConnecting] = useState<TIntegrationKind | null>(null);
  const shown = useEverShown(integrations, (integration) => integration.uuid);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {shown.map((integration) => (
        <FetcherAnswer<ChatAppsActionData>
          key={integration.uuid}
          fetcherKey={disconnectFetcherKey(integration.uuid)}
          onAnswer={(answer) => {
            if (answer.intent === 'disconnect-chat-app' && answer.ok)
              toast.success(`${integration.kind === 'slack' ? 'Slack' : 'Telegram'} disconnected`);
          }}
        />
      ))}
      {KINDS.map(({ kind, name, icon: Icon, text }) => {
        const own = integrations.filter((i) => i.kind === kind);
        return (
          <section
            key={kind}
            aria-labelledby={`chat-app-${kind}`}
            className="grid content-start gap-4 rounded-xl border bg-card px-4 py-4 sm:px-5"
          >
            <div className="flex items-start gap-3">
              <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground [&_svg]:size-4">
                <Icon aria-hidden="true" />
              </span>
              <div className="grid min-w-0 flex-1 gap-1">
                <h3 id={`chat-app-${kind}`} className="font-medium">
                  {name}
                </h3>
                <p className="text-muted-foreground text-sm">{text}</p>
              </div>
              <Button
                size="sm"
                variant={own.length ? 'outline' : 'default'}
                onClick={() => setConnecting(kind)}
                disabled={applications.length === 0}
              >
                <PlusIcon aria-hidden="true" />
                Connect
              </Button>
            </div>
            {own.length === 0 ? (
              <p className="text-muted-foreground text-sm">
                {applications.length === 0 ? 'Create an application first.' : 'Not connected.'}
              </p>
            ) : (
              <ul className="grid gap-3" aria-label={`${name} connections`}>
                {own.map((integration) => (
                  <ChatAppConnection
                    key={integration.uuid}
                    integration={integration}
                    applications={applications}
                  />
                ))}
              </ul>
            )}
            <ConnectChatAppDialog
              kind={kind}
              open={connecting === kind}
              onOpenChange={(open) => setConnecting(open ? kind : null)}
              applications={applications}
            />
          </section>
        );
      })}
    </div>
  );
}

/** One connected bot: its application, status, last event and last error, and what can be done to it. */
function ChatAppConnection({
  integration,
  applications,
}: {
  integration: TIntegration;
  applications: Applications;
}) {
  const application =
    applications.find((a) => a.uuid === integration.application_uuid)?.name ?? 'An application';
  return (
    <li className="grid gap-3 rounded-lg border px-3 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-sm">{integration.bot_name}</span>
        {integration.status === 'connected' ? (
          <Badge variant="secondary">Connected</Badge>
        ) : (
          <Badge variant="outline" className="text-destructive">
            Error
          </Badge>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
        <DetailItem label="Application">{application}</DetailItem>
        <DetailItem label="Last event">
          {integration.last_event_at ? <RelativeTime iso={integration.last_event_at} /> : 'None yet'}
        </DetailItem>
        {integration.kind === 'telegram' ? (
          <DetailItem wide label="Updates">
            {integration.mode === 'webhook' ? 'Webhook' : 'Long polling'}: {integration.mode_reason}
          </DetailItem>
        ) : (
          <DetailItem wide label="Events URL">
            <span className="flex items-center gap-2">
              <span className="min-w-0 font-mono text-xs break-all">{integration.events_url}</span>
              <CopyButton value={integration.events_url} label="Copy events URL" size="sm" variant="ghost">
                Copy
              </CopyButton>
            </span>
          </DetailItem>
        )}
        {integration.last_error ? (
          <DetailItem wide label="Last error">
            <span className="text-destructive wrap-anywhere">
              {integration.last_error}
              {integration.last_error_at ? (
                <>
                  {' '}
                  (<RelativeTime iso={integration.last_error_at} />)
                </>
              ) : null}
            </span>
          </DetailItem>
        ) : null}
      </dl>
      <div className="flex flex-wrap gap-2">
        {integration.kind === 'slack' ? <ManifestButton integration={integration} /> : null}
        <Disconnect integration={integration} />
      </div>
    </li>
  );
}

function ManifestButton({ integration }: { integration: Extract<TIntegration, { kind: 'slack' }> }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <FileJsonIcon aria-hidden="true" />
          App manifest
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Slack app manifest</DialogTitle>
          <DialogDescription>
            Paste it in your Slack app’s App Manifest page and save: it sets the scopes, the events with this
            events URL and the interactivity URL of the feedback buttons. Reinstall the app when Slack asks.
          </DialogDescription>
        </DialogHeader>
        <SlackManifestBlock id={`manifest-${integration.uuid}`} manifest={integration.manifest} />
      </DialogContent>
    </Dialog>
  );
}

function Disconnect({ integration }: { integration: TIntegration }) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<ChatAppsActionData>({ key: disconnectFetcherKey(integration.uuid) });
  const result = fetcher.data?.intent === 'disconnect-chat-app' ? fetcher.data : undefined;
  const name = integration.kind === 'slack' ? 'Slack' : 'Telegram';
  // Closed as soon as the answer arrives; `ChatApps` says so, as this card may already be gone.
  useEffect(() => {
    if (result?.ok) setOpen(false);
  }, [result]);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive">
          <Trash2Icon aria-hidden="true" />
          Disconnect
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Disconnect {integration.bot_name}?</DialogTitle>
          <DialogDescription>
            The assistant stops answering in {name} at once and Cairn forgets the token. The conversations
            stay with the application.
          </DialogDescription>
        </DialogHeader>
        <ConfirmForm
          fetcher={fetcher}
          fields={{ intent: 'disconnect-chat-app', integrationId: integration.uuid }}
          error={result && !result.ok ? result.errors.formError : null}
          onCancel={() => setOpen(false)}
          confirm="Disconnect"
          confirming="Disconnecting…"
        />
      </DialogContent>
    </Dialog>
  );
}

const disconnectFetcherKey = (uuid: string) => `disconnect-${uuid}`;
