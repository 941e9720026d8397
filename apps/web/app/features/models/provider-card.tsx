import type { TModelProvider } from '@cairn/contracts/model-providers';
import { PROVIDER_KIND_LABELS } from '@cairn/contracts/provider-kinds';
import { useState } from 'react';
import { useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
import { KeyRoundIcon, PencilIcon, PlugZapIcon, PlusIcon, Trash2Icon, XIcon } from '../../components/icons';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader } from '../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { ModelPricesForm } from './model-prices-form';
import type { ModelsActionData } from './models-action.server';
import { NativeSelect } from './native-select';
import { ProviderFormDialog } from './provider-form-dialog';
import { guessModelType } from './provider-kinds';

/** How a model's type reads on screen (the API's values are lower-case identifiers). */
const MODEL_TYPE_LABELS = { text: 'Text', embedding: 'Embedding' } as const;

/** One provider: its connection, a connection test listing its models, and the models Cairn may use. */
export function ProviderCard({ provider }: { provider: TModelProvider }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const test = useFetcher<ModelsActionData>({ key: `test-${provider.uuid}` });
  const testResult = test.data?.intent === 'test' && test.data.ok ? test.data.test : null;
  const testError = test.data && !test.data.ok ? test.data.errors.formError : null;
  const added = new Set(provider.models.map((m) => `${m.model_type}:${m.name}`));
  const notAdded =
    testResult?.models.filter((name) => !added.has(`text:${name}`) && !added.has(`embedding:${name}`)) ?? [];
  const headingId = `provider-${provider.uuid}-name`;

  return (
    <Card aria-labelledby={headingId} role="region" className="gap-4">
      <CardHeader className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={headingId} className="text-lg font-semibold">
              {provider.name}
            </h2>
            <Badge variant="secondary">{PROVIDER_KIND_LABELS[provider.kind]}</Badge>
          </div>
          <p className="truncate font-mono text-muted-foreground text-sm">{provider.base_url}</p>
          <p className="flex items-center gap-1.5 text-muted-foreground text-sm">
            <KeyRoundIcon aria-hidden="true" className="size-3.5" />
            {provider.key_last4
              ? `Key ending in ${provider.key_last4}`
              : provider.key_last4 === ''
                ? 'Key stored'
                : 'No key'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <test.Form method="post">
            <input type="hidden" name="intent" value="test" />
            <input type="hidden" name="providerId" value={provider.uuid} />
            <Button type="submit" variant="outline" size="sm" disabled={test.state !== 'idle'}>
              <PlugZapIcon aria-hidden="true" />
              {test.state !== 'idle' ? 'Testing…' : 'Test connection'}
            </Button>
          </test.Form>
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            <PencilIcon aria-hidden="true" />
            Edit
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setDeleting(true)}
            aria-label={`Remove ${provider.name}`}
          >
            <Trash2Icon aria-hidden="true" />
          </Button>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div aria-live="polite" className="empty:hidden">
          {testError ? <FormError message={testError} /> : null}
          {testResult && !testResult.ok ? <FormError message={testResult.detail} /> : null}
          {testResult?.ok ? (
            <Alert variant="success">
              <AlertDescription>
                Connected.{' '}
                {testResult.models.length
                  ? `${testResult.models.length} model${testResult.models.length === 1 ? '' : 's'} available.`
                  : 'The provider lists no models; enter them by name below.'}
              </AlertDescription>
            </Alert>
          ) : null}
        </div>
        {notAdded.length ? <AvailableModels provider={provider} names={notAdded} /> : null}
        <ModelList provider={provider} />
        <AddModelForm provider={provider} />
      </CardContent>
      <ProviderFormDialog open={editing} onOpenChange={setEditing} provider={provider} />
      <DeleteProviderDialog provider={provider} open={deleting} onOpenChange={setDeleting} />
    </Card>
  );
}

function ModelList({ provider }: { provider: TModelProvider }) {
  if (!provider.models.length) {
    return (
      <p className="text-muted-foreground text-sm">
        No models yet. Test the connection to pick from the provider’s list, or enter a model name.
      </p>
    );
  }
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-medium">Models</h3>
      <ul className="divide-y rounded-md border">
        {provider.models.map((model) => (
          <ModelRow key={model.uuid} provider={provider} model={model} />
        ))}
      </ul>
    </div>
  );
}

function ModelRow({
  provider,
  model,
}: {
  provider: TModelProvider;
  model: TModelProvider['models'][number];
}) {
  const fetcher = useFetcher<ModelsActionData>({ key: `remove-${model.uuid}` });
  return (
    <li className="grid gap-2 px-3 py-2">
      <div className="flex items-center justify-between gap-3">
        <span className="flex min-w-0 items-center gap-2">
          <span className="truncate font-mono text-sm">{model.name}</span>
          <Badge variant="outline">{MODEL_TYPE_LABELS[model.model_type]}</Badge>
        </span>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="remove-model" />
          <input type="hidden" name="providerId" value={provider.uuid} />
          <input type="hidden" name="modelId" value={model.uuid} />
          <Button
            type="submit"
            variant="ghost"
            size="sm"
            disabled={fetcher.state !== 'idle'}
            aria-label={`Remove ${model.name}`}
          >
            <XIcon aria-hidden="true" />
          </Button>
        </fetcher.Form>
      </div>
      {/* Only answers spend counted tokens: an embedding model has no price here. */}
      {model.model_type === 'text' ? <ModelPricesForm providerId={provider.uuid} model={model} /> : null}
    </li>
  );
}

/** The provider's listed models not added yet, each addable as text or embedding in one click. */
function AvailableModels({ provider, names }: { provider: TModelProvider; names: string[] }) {
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-medium">Available from the provider</h3>
      <ul className="max-h-64 divide-y overflow-y-auto rounded-md border">
        {names.map((name) => (
          <AvailableModelRow key={name} provider={provider} name={name} />
        ))}
      </ul>
    </div>
  );
}

function AvailableModelRow({ provider, name }: { provider: TModelProvider; name: string }) {
  const fetcher = useFetcher<ModelsActionData>({ key: `add-${provider.uuid}-${name}` });
  const suggested = guessModelType(name);
  const types =
    provider.kind === 'anthropic'
      ? (['text'] as const)
      : suggested === 'embedding'
        ? (['embedding', 'text'] as const)
        : (['text', 'embedding'] as const);
  const error =
    fetcher.data && !fetcher.data.ok
      ? (fetcher.data.errors.formError ?? Object.values(fetcher.data.errors.fieldErrors)[0])
      : null;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
      <span className="min-w-0 truncate font-mono text-sm">{name}</span>
      <fetcher.Form method="post" className="flex gap-1">
        <input type="hidden" name="intent" value="add-model" />
        <input type="hidden" name="providerId" value={provider.uuid} />
        <input type="hidden" name="name" value={name} />
        {types.map((type, index) => (
          <Button
            key={type}
            type="submit"
            name="model_type"
            value={type}
            size="sm"
            variant={index === 0 ? 'secondary' : 'ghost'}
            disabled={fetcher.state !== 'idle'}
            aria-label={`Add ${name} as ${type} model`}
          >
            <PlusIcon aria-hidden="true" />
            {MODEL_TYPE_LABELS[type]}
          </Button>
        ))}
      </fetcher.Form>
      {error ? <p className="w-full text-destructive text-sm">{error}</p> : null}
    </li>
  );
}

function AddModelForm({ provider }: { provider: TModelProvider }) {
  const fetcher = useFetcher<ModelsActionData>({ key: `add-model-${provider.uuid}` });
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.errors : null;
  const nameId = `add-model-${provider.uuid}-name`;
  const typeId = `add-model-${provider.uuid}-type`;
  const error = errors?.fieldErrors.name ?? errors?.fieldErrors.model_type ?? errors?.formError;
  return (
    <fetcher.Form
      method="post"
      className="grid gap-2"
      key={fetcher.data?.ok && 'message' in fetcher.data ? fetcher.data.message : 'form'}
      aria-label={`Add a model to ${provider.name}`}
    >
      <input type="hidden" name="intent" value="add-model" />
      <input type="hidden" name="providerId" value={provider.uuid} />
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={nameId} className="sr-only">
          Model name
        </label>
        <Input
          id={nameId}
          name="name"
          required
          maxLength={200}
          placeholder="Model name, e.g. llama3.2 or text-embedding-3-small"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${nameId}-error` : undefined}
          className="font-mono sm:flex-1"
        />
        <label htmlFor={typeId} className="sr-only">
          Model type
        </label>
        <NativeSelect id={typeId} name="model_type" defaultValue="text" className="sm:w-36">
          <option value="text">Text</option>
          {provider.kind === 'anthropic' ? null : <option value="embedding">Embedding</option>}
        </NativeSelect>
        <Button type="submit" variant="secondary" disabled={fetcher.state !== 'idle'}>
          <PlusIcon aria-hidden="true" />
          Add model
        </Button>
      </div>
      {error ? (
        <p id={`${nameId}-error`} className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

function DeleteProviderDialog({
  provider,
  open,
  onOpenChange,
}: {
  provider: TModelProvider;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const fetcher = useFetcher<ModelsActionData>({ key: `delete-${provider.uuid}` });
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.errors.formError : null;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Remove {provider.name}?</DialogTitle>
          <DialogDescription>
            Its key and its {provider.models.length} model{provider.models.length === 1 ? '' : 's'} are
            deleted. Applications using one of them will fail to answer until you choose another model.
          </DialogDescription>
        </DialogHeader>
        <FormError message={error} />
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="providerId" value={provider.uuid} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={fetcher.state !== 'idle'}>
              {fetcher.state !== 'idle' ? 'Removing…' : 'Remove provider'}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
