import type { TModelProvider } from '@cairn/contracts/model-providers';
import { useState } from 'react';
import { CpuIcon, PlusIcon } from '../components/icons';
import { PageHeader } from '../components/page-header';
import { Button } from '../components/ui/button';
import { EmptyState } from '../components/ui/empty-state';
import { modelsAction } from '../features/models/models-action.server';
import { ProviderCard } from '../features/models/provider-card';
import { ProviderFormDialog } from '../features/models/provider-form-dialog';
import { apiFor } from '../lib/api.server';
import type { Route } from './+types/settings.models';

export const meta: Route.MetaFunction = () => [{ title: 'Models · Settings · Cairn' }];

export async function loader(args: Route.LoaderArgs) {
  const providers = await apiFor(args).get<TModelProvider[]>('/api/model-providers/');
  return { providers };
}

export async function action(args: Route.ActionArgs) {
  return modelsAction(apiFor(args), await args.request.formData());
}

/** Model providers (spec issue 5): connect, test, and list or enter text and embedding models. */
export default function SettingsModels({ loaderData }: Route.ComponentProps) {
  const { providers } = loaderData;
  const [adding, setAdding] = useState(false);
  const add = (
    <Button onClick={() => setAdding(true)}>
      <PlusIcon aria-hidden="true" />
      Add provider
    </Button>
  );
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title="Models"
        description="Language model providers for answering and embedding. Applications choose their models on their own page."
        actions={providers.length ? add : null}
      />
      {providers.length ? (
        <div className="grid gap-6">
          {providers.map((provider) => (
            <ProviderCard key={provider.uuid} provider={provider} />
          ))}
        </div>
      ) : (
        <EmptyState
          icon={<CpuIcon />}
          title="No model providers yet"
          description="Applications answer with the built-in models, which need no network. Connect OpenAI, Anthropic, Ollama or any OpenAI-compatible server to answer with a language model."
          action={add}
        />
      )}
      <ProviderFormDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}
