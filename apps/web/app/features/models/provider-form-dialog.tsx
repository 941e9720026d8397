import type { TModelProvider, TProviderKind } from '@cairn/contracts/model-providers';
import { PROVIDER_KIND_LABELS, PROVIDER_KIND_VALUES } from '@cairn/contracts/provider-kinds';
import { useCallback, useEffect, useState } from 'react';
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
import type { ModelsActionData } from './models-action.server';
import { NativeSelect } from './native-select';
import { KIND_HELP } from './provider-kinds';

/**
 * Adds a provider (kind, name, base URL, key) or edits one. The key field is write-only: editing
 * shows the last 4 characters and a blank field keeps the stored key.
 */
export function ProviderFormDialog({
  open,
  onOpenChange,
  provider,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  provider?: TModelProvider;
}) {
  const editing = Boolean(provider);
  const { fetcher, forget } = useDialogFetcher<ModelsActionData>(`provider-form-${provider?.uuid ?? 'new'}`);
  const [kind, setKind] = useState<TProviderKind>(provider?.kind ?? 'openai');
  const result = fetcher.data;
  const errors = result && !result.ok ? result.errors : null;
  const fieldError = (name: string) => errors?.fieldErrors[name];
  const busy = fetcher.state !== 'idle';
  const help = KIND_HELP[kind];
  const idPrefix = `provider-${provider?.uuid ?? 'new'}`;

  // Closing forgets the last answer, so the form opens clean next time.
  const setOpen = useCallback(
    (next: boolean) => {
      if (!next) forget();
      onOpenChange(next);
    },
    [forget, onOpenChange],
  );

  useEffect(() => {
    if (
      fetcher.state === 'idle' &&
      result?.ok &&
      (result.intent === 'create' || result.intent === 'update')
    ) {
      setOpen(false);
    }
  }, [fetcher.state, result, setOpen]);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? `Edit ${provider?.name}` : 'Add a model provider'}</DialogTitle>
          <DialogDescription>
            {editing
              ? 'Change the name, the URL or the API key.'
              : 'OpenAI, Anthropic, Ollama, or any OpenAI-compatible server. Keys are stored encrypted and never shown again.'}
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post" className="grid gap-4" noValidate>
          <input type="hidden" name="intent" value={editing ? 'update' : 'create'} />
          {provider ? <input type="hidden" name="providerId" value={provider.uuid} /> : null}
          <FormError message={errors?.formError} />
          {editing ? null : (
            <Field id={`${idPrefix}-kind`} label="Kind" error={fieldError('kind')}>
              {(aria) => (
                <NativeSelect
                  {...aria}
                  name="kind"
                  value={kind}
                  onChange={(event) => setKind(event.target.value as TProviderKind)}
                >
                  {PROVIDER_KIND_VALUES.map((value) => (
                    <option key={value} value={value}>
                      {PROVIDER_KIND_LABELS[value]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          )}
          <Field id={`${idPrefix}-name`} label="Name" error={fieldError('name')}>
            {(aria) => (
              <Input
                {...aria}
                name="name"
                required
                maxLength={100}
                autoComplete="off"
                defaultValue={provider?.name ?? ''}
                placeholder={editing ? undefined : `e.g. ${PROVIDER_KIND_LABELS[kind]}`}
              />
            )}
          </Field>
          <Field
            id={`${idPrefix}-url`}
            label="Base URL"
            description={help.hint}
            error={fieldError('base_url')}
          >
            {(aria) => (
              <Input
                {...aria}
                name="base_url"
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                defaultValue={provider?.base_url ?? ''}
                placeholder={help.placeholder}
              />
            )}
          </Field>
          <Field
            id={`${idPrefix}-key`}
            label="API key"
            description={
              provider?.key_last4
                ? `Stored key ends in ${provider.key_last4}. Leave empty to keep it.`
                : provider && !provider.key_last4
                  ? 'No key stored.'
                  : help.keyHint
            }
            error={fieldError('api_key')}
          >
            {(aria) => (
              <Input {...aria} name="api_key" type="password" autoComplete="off" spellCheck={false} />
            )}
          </Field>
          {provider?.key_last4 ? (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="remove_key" className="size-4 accent-primary" />
              Remove the stored key
            </label>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving…' : editing ? 'Save' : 'Add provider'}
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
