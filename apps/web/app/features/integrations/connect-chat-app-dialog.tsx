import type { TIntegration, TIntegrationKind } from '@cairn/contracts/integrations';
import { useCallback } from 'react';
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
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { useDialogFetcher } from '../../lib/use-dialog-fetcher';
import { NativeSelect } from '../models/native-select';
import type { ChatAppsActionData } from './chat-apps.server';
import { SlackManifestBlock } from './slack-manifest-block';

/** Where each token is found, step by step, as the services name their screens. */
const STEPS: Record<TIntegrationKind, string[]> = {
  slack: [
    'At api.slack.com/apps, create a new app (from scratch) in your workspace.',
    'Under OAuth & Permissions, add the bot scope chat:write and install the app to the workspace. Copy the Bot User OAuth Token (xoxb-…).',
    'Under Basic Information → App Credentials, copy the Signing Secret.',
    'Paste both here. Cairn then gives you a manifest: paste it in the app’s App Manifest page and save (it sets the events, the interactivity and the scopes), then reinstall the app.',
  ],
  telegram: [
    'In Telegram, talk to @BotFather and send /newbot (or /token for an existing bot).',
    'Copy the token it gives you (123456789:AA…) and paste it here.',
    'Open your bot in Telegram and send /start.',
  ],
};
const NAMES: Record<TIntegrationKind, string> = { slack: 'Slack', telegram: 'Telegram' };

/** Connects a Slack app or a Telegram bot to an application; then shows what is left to do. */
export function ConnectChatAppDialog({
  kind,
  open,
  onOpenChange,
  applications,
}: {
  kind: TIntegrationKind;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  applications: Array<{ uuid: string; name: string }>;
}) {
  const intent = kind === 'slack' ? 'connect-slack' : 'connect-telegram';
  const { fetcher, forget } = useDialogFetcher<ChatAppsActionData>(intent);
  const result = fetcher.data?.intent === intent ? fetcher.data : undefined;
  const connected = result?.ok && 'integration' in result ? result.integration : null;
  const errors = result && !result.ok ? result.errors : null;
  const busy = fetcher.state !== 'idle';
  const setOpen = useCallback(
    (next: boolean) => {
      if (!next) forget();
      onOpenChange(next);
    },
    [forget, onOpenChange],
  );
  const id = (name: string) => `connect-${kind}-${name}`;

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl">
        {connected ? (
          <Connected integration={connected} onDone={() => setOpen(false)} />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Connect {NAMES[kind]}</DialogTitle>
              <DialogDescription>
                Your assistant answers in {NAMES[kind]} from its knowledge, with its sources. The token is
                checked with {NAMES[kind]}, stored encrypted and never shown again.
              </DialogDescription>
            </DialogHeader>
            <ol className="grid list-decimal gap-1.5 pl-5 text-sm">
              {STEPS[kind].map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
            <fetcher.Form method="post" className="grid gap-4">
              <input type="hidden" name="intent" value={intent} />
              <FormError message={errors?.formError} />
              <Field id={id('application')} label="Application" error={errors?.fieldErrors.application_uuid}>
                {(aria) => (
                  <NativeSelect
                    {...aria}
                    name="application_uuid"
                    required
                    defaultValue={applications[0]?.uuid}
                  >
                    {applications.map((a) => (
                      <option key={a.uuid} value={a.uuid}>
                        {a.name}
                      </option>
                    ))}
                  </NativeSelect>
                )}
              </Field>
              <Field
                id={id('token')}
                label={kind === 'slack' ? 'Bot User OAuth Token' : 'Bot token'}
                error={errors?.fieldErrors.bot_token}
              >
                {(aria) => (
                  <Input
                    {...aria}
                    name="bot_token"
                    required
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    placeholder={kind === 'slack' ? 'xoxb-…' : '123456789:AA…'}
                  />
                )}
              </Field>
              {kind === 'slack' ? (
                <Field id={id('secret')} label="Signing Secret" error={errors?.fieldErrors.signing_secret}>
                  {(aria) => (
                    <Input
                      {...aria}
                      name="signing_secret"
                      required
                      autoComplete="off"
                      spellCheck={false}
                      className="font-mono"
                    />
                  )}
                </Field>
              ) : null}
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" disabled={busy || applications.length === 0}>
                  {busy ? 'Checking…' : `Connect ${NAMES[kind]}`}
                </Button>
              </DialogFooter>
            </fetcher.Form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Connected({ integration, onDone }: { integration: TIntegration; onDone: () => void }) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>{integration.bot_name} is connected</DialogTitle>
        <DialogDescription>
          {integration.kind === 'slack'
            ? 'Last step: in your Slack app, open App Manifest, replace it with this one and save. Slack checks the events URL at once; then reinstall the app when Slack asks. Mention the bot in a channel, or message it directly.'
            : integration.mode_reason}
        </DialogDescription>
      </DialogHeader>
      {integration.kind === 'slack' ? (
        <SlackManifestBlock id={`manifest-${integration.uuid}`} manifest={integration.manifest} />
      ) : null}
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </>
  );
}
