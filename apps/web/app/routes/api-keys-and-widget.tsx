import { API_KEYS_MAX } from '@cairn/contracts/api-key-limits';
import { useRef } from 'react';
import { FetcherAnswer, useEverShown } from '../components/fetcher-answer';
import { KeyRoundIcon } from '../components/icons';
import { LoadErrorAlert } from '../components/load-error-alert';
import { PageHeader } from '../components/page-header';
import { EmptyState } from '../components/ui/empty-state';
import { Separator } from '../components/ui/separator';
import { ApiKeyRow, deleteApiKeyFetcherKey } from '../features/api-keys/api-key-row';
import {
  type ApiKeysActionData,
  apiKeysAction,
  loadApiKeys,
  publicApiBaseUrl,
} from '../features/api-keys/api-keys.server';
import { ApiUsage } from '../features/api-keys/api-usage';
import { CreateApiKeyDialog } from '../features/api-keys/create-api-key-dialog';
import { McpUsage } from '../features/api-keys/mcp-usage';
import { LazyWidgetSettingsForm } from '../features/widget/lazy-widget-settings-form';
import { loadWidgetSettings, saveWidgetSettings } from '../features/widget/widget.server';
import { apiFor } from '../lib/api.server';
import { webLoadContext } from '../lib/load-context';
import { toast } from '../lib/toast';
import type { Route } from './+types/api-keys-and-widget';
import { useNavigationData } from './default-layout';

export const meta: Route.MetaFunction = () => [{ title: 'API keys & widget · Cairn' }];

export async function loader(args: Route.LoaderArgs) {
  const api = apiFor(args);
  const { appId } = args.params;
  const [keys, widget] = await Promise.all([loadApiKeys(api, appId), loadWidgetSettings(api, appId)]);
  const origin = new URL(webLoadContext(args.context).publicUrl).origin;
  return {
    ...keys,
    widget: widget.widget,
    widgetError: widget.error,
    baseUrl: publicApiBaseUrl(webLoadContext(args.context).publicUrl),
    // The real widget in preview mode; the embed page answers it to the signed-in owner, framed by this app only.
    previewSrc: `/embed/v1/${appId}?${new URLSearchParams({ origin, preview: '1' })}`,
  };
}

/** Create a key (shown once, in the answer) or delete one (form posts); save the widget settings (JSON). */
export async function action(args: Route.ActionArgs) {
  const api = apiFor(args);
  if (args.request.headers.get('content-type')?.includes('application/json')) {
    const body: unknown = await args.request.json().catch(() => null);
    return saveWidgetSettings(api, args.params.appId, body);
  }
  return apiKeysAction(api, args.params.appId, await args.request.formData());
}

/**
 * Publishing an application (issue 9 §3–§4, issue 10): keys for the OpenAI-compatible API with
 * copy-ready examples, and the website widget's settings with a live preview.
 */
export default function ApiKeysAndWidget({ loaderData, params }: Route.ComponentProps) {
  const { keys, error, baseUrl, widget, widgetError, previewSrc } = loaderData;
  const { selected } = useNavigationData();
  const listTitle = useRef<HTMLHeadingElement>(null);
  const shown = useEverShown(keys, (key) => key.uuid);
  const atLimit = (keys?.length ?? 0) >= API_KEYS_MAX;

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="API keys & widget" description={selected?.name} />
      <div className="grid gap-10">
        <section aria-labelledby="api-keys-title" className="grid gap-4">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div className="grid gap-1">
              <h2
                id="api-keys-title"
                ref={listTitle}
                tabIndex={-1}
                className="font-semibold text-lg outline-none"
              >
                API keys
              </h2>
              <p className="text-muted-foreground text-sm">
                Let your own code ask this application questions through the OpenAI-compatible API.
              </p>
            </div>
            <CreateApiKeyDialog disabled={atLimit} />
          </div>
          {keys === null ? (
            <LoadErrorAlert message={error} />
          ) : keys.length === 0 ? (
            <EmptyState
              icon={<KeyRoundIcon />}
              title="No API keys yet"
              description="Create a key to call this application from your code, with the examples below."
            />
          ) : (
            <ul className="divide-y rounded-xl border" aria-label="API keys">
              {keys.map((key) => (
                <ApiKeyRow key={key.uuid} apiKey={key} focusAfterDelete={listTitle} />
              ))}
            </ul>
          )}
          {shown.map((key) => (
            <FetcherAnswer<ApiKeysActionData>
              key={key.uuid}
              fetcherKey={deleteApiKeyFetcherKey(key.uuid)}
              onAnswer={(answer) => {
                if (answer.intent !== 'delete' || !answer.ok) return;
                toast.success(`API key “${key.name}” deleted`);
                listTitle.current?.focus();
              }}
            />
          ))}
          {atLimit ? (
            <p className="text-muted-foreground text-sm">
              An application has at most {API_KEYS_MAX} keys. Delete one to create another.
            </p>
          ) : null}
        </section>
        <section aria-labelledby="api-usage-title" className="grid gap-4">
          <div className="grid gap-1">
            <h2 id="api-usage-title" className="font-semibold text-lg">
              Use the API
            </h2>
            <p className="text-muted-foreground text-sm">
              Any OpenAI-compatible client works: point it at the base URL, send a key as the bearer token and
              the application ID as the model.
            </p>
          </div>
          <ApiUsage baseUrl={baseUrl} model={params.appId} />
        </section>
        <section aria-labelledby="mcp-title" className="grid gap-4">
          <div className="grid gap-1">
            <h2 id="mcp-title" className="font-semibold text-lg">
              Use from AI tools (MCP)
            </h2>
            <p className="text-muted-foreground text-sm">
              Claude Desktop, Cursor, VS Code and any MCP client can search this application’s knowledge and
              ask it questions, with the same keys.
            </p>
          </div>
          <McpUsage url={`${baseUrl}/mcp`} name={selected?.name ?? 'Cairn'} />
        </section>
        <Separator />
        <section aria-labelledby="widget-title" className="grid gap-4">
          <div className="grid gap-1">
            <h2 id="widget-title" className="font-semibold text-lg">
              Website widget
            </h2>
            <p className="text-muted-foreground text-sm">
              A chat button for your website that answers visitors from this application’s knowledge, and lets
              them reach you.
            </p>
          </div>
          {widget ? (
            <LazyWidgetSettingsForm key={params.appId} widget={widget} previewSrc={previewSrc} />
          ) : (
            <LoadErrorAlert message={widgetError} />
          )}
        </section>
      </div>
    </div>
  );
}
