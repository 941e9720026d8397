import {
  API_KEY_NAME_MAX,
  API_KEY_RPM_DEFAULT,
  API_KEY_RPM_MAX,
  API_KEY_RPM_MIN,
  type TCreatedApiKey,
} from '@cairn/contracts/api-keys';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
import { TriangleAlertIcon } from '../../components/icons';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { formatNumber } from '../../lib/format-number';
import { useZodForm } from '../../lib/forms';
import { NativeSelect } from '../models/native-select';
import type { ApiKeysActionData } from './api-keys.server';
import { CopyButton } from './copy-button';
import { EXPIRY_CHOICES, type ExpiryChoice, expiresAtOf, ZCreateApiKeyForm } from './create-api-key-form';

/**
 * The create-key dialog's content (the form, then the new key), loaded when the dialog first opens:
 * the form brings zod and react-hook-form, which the page does not need before (decision 091).
 */
export function CreateKeyForm({
  fetcher,
  errors,
  onCancel,
}: {
  fetcher: ReturnType<typeof useFetcher<ApiKeysActionData>>;
  errors: Extract<ApiKeysActionData, { ok: false }>['errors'] | null;
  onCancel: () => void;
}) {
  const { form } = useZodForm(async () => ZCreateApiKeyForm, {
    defaultValues: { name: '', expires_at: '', requests_per_minute: String(API_KEY_RPM_DEFAULT) },
    serverErrors: errors,
  });
  const {
    register,
    setValue,
    setError,
    formState: { errors: fieldErrors },
  } = form;
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [date, setDate] = useState('');
  const busy = fetcher.state !== 'idle';
  const today = dayjs().format('YYYY-MM-DD');

  return (
    <>
      <DialogHeader>
        <DialogTitle>Create an API key</DialogTitle>
        <DialogDescription>
          Your code sends it as <span className="font-mono">Authorization: Bearer …</span> to ask this
          application questions.
        </DialogDescription>
      </DialogHeader>
      <fetcher.Form
        method="post"
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          const element = event.currentTarget;
          // The expiry is worked out now, from the choice and the user's own calendar.
          const expiresAt = expiresAtOf(expiry, date);
          if (expiresAt === undefined) {
            event.preventDefault();
            setError('expires_at', { message: 'Choose a date' }, { shouldFocus: false });
            element.querySelector<HTMLInputElement>('#api-key-expiry-date')?.focus();
            return;
          }
          setValue('expires_at', expiresAt);
          void form.handleSubmit(() => fetcher.submit(element, { method: 'post' }))(event);
        }}
      >
        <input type="hidden" name="intent" value="create" />
        <input type="hidden" {...register('expires_at')} />
        <FormError message={errors?.formError} />
        <Field id="api-key-name" label="Name" error={fieldErrors.name?.message}>
          {(aria) => (
            <Input
              {...aria}
              autoComplete="off"
              maxLength={API_KEY_NAME_MAX}
              placeholder="e.g. Production server"
              {...register('name')}
            />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="api-key-expiry"
            label="Expires"
            error={expiry === 'custom' ? undefined : fieldErrors.expires_at?.message}
          >
            {(aria) => (
              <NativeSelect
                {...aria}
                name="expiry"
                value={expiry}
                onChange={(event) => setExpiry(event.target.value as ExpiryChoice)}
              >
                {EXPIRY_CHOICES.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          {expiry === 'custom' ? (
            <Field
              id="api-key-expiry-date"
              label="Expiry date"
              description="Valid until the end of that day."
              error={fieldErrors.expires_at?.message}
            >
              {(aria) => (
                <Input
                  {...aria}
                  type="date"
                  min={today}
                  value={date}
                  onChange={(event) => setDate(event.target.value)}
                />
              )}
            </Field>
          ) : null}
        </div>
        <Field
          id="api-key-rpm"
          label="Requests per minute"
          description={`Between ${API_KEY_RPM_MIN} and ${formatNumber(API_KEY_RPM_MAX)}. Requests over the limit are refused until the minute is over.`}
          error={fieldErrors.requests_per_minute?.message}
        >
          {(aria) => (
            <Input
              {...aria}
              type="number"
              inputMode="numeric"
              min={API_KEY_RPM_MIN}
              max={API_KEY_RPM_MAX}
              step={1}
              className="sm:w-40"
              {...register('requests_per_minute')}
            />
          )}
        </Field>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create key'}
          </Button>
        </DialogFooter>
      </fetcher.Form>
    </>
  );
}

export function CreatedKey({ created, onDone }: { created: TCreatedApiKey; onDone: () => void }) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>Save your API key</DialogTitle>
        <DialogDescription className="wrap-anywhere">“{created.name}” is ready to use.</DialogDescription>
      </DialogHeader>
      {/* The kit has no warning colour; amber reads as "take care" in every theme. */}
      <Alert className="border-amber-500/60 bg-amber-500/10 [&>svg]:text-amber-600 dark:[&>svg]:text-amber-400">
        <TriangleAlertIcon aria-hidden="true" />
        <AlertTitle>This key will not be shown again</AlertTitle>
        <AlertDescription>
          Copy it now and keep it somewhere safe, such as a secret manager. Cairn stores only a hash of it: if
          you lose it, delete it and create a new one.
        </AlertDescription>
      </Alert>
      <div className="grid gap-2">
        <label htmlFor="created-api-key" className="font-medium text-sm">
          Your new API key
        </label>
        <div className="flex items-center gap-2">
          <Input
            id="created-api-key"
            readOnly
            value={created.key}
            className="font-mono"
            spellCheck={false}
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton value={created.key} label="Copy API key" size="default">
            Copy
          </CopyButton>
        </div>
      </div>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </>
  );
}
