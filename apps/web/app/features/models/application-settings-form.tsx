import {
  NO_ANSWER_MESSAGE_MAX,
  RETENTION_DAYS_MAX,
  RETENTION_DAYS_MIN,
  STRICTNESS_LEVELS,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
} from '@cairn/contracts/application-limits';
import type { TApplication } from '@cairn/contracts/applications';
import type { TAvailableModel } from '@cairn/contracts/model-providers';
import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { FormError } from '../../components/form-error';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { Textarea } from '../../components/ui/textarea';
import { useSchemaForm } from '../../lib/schema-form';
import { toast } from '../../lib/toast';
import type { SettingsActionData } from './application-settings.server';
import { NativeSelect } from './native-select';
import { STRICTNESS_TEXT } from './strictness-text';

const fetcherKey = (appUuid: string) => `settings-${appUuid}`;
/** What the days field offers when conversations are kept forever. */
const DEFAULT_RETENTION_DAYS = 90;

/**
 * Toasts a save. Lives in the page, not the form: the form remounts with the saved values, and
 * would otherwise toast the same answer again.
 */
export function useSettingsSavedToast(appUuid: string) {
  const fetcher = useFetcher<SettingsActionData>({ key: fetcherKey(appUuid) });
  const result = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== 'idle' || !result?.ok) return;
    if (result.reindexing) {
      toast.success('Settings saved', {
        description: 'The knowledge is being indexed again with the new embedding model.',
      });
    } else toast.success('Settings saved');
  }, [fetcher.state, result]);
}

const selectedOf = (app: TApplication, type: 'text' | 'embedding') =>
  app.llm_models.find((m) => m.model_type === type)?.uuid ?? '';

/**
 * Models, instructions, temperature, strictness, the no-answer message and how long conversations
 * are kept, of one application. The controls are uncontrolled, each with its saved value as a DOM
 * default: the server-rendered form shows (and, posted before hydration, sends) the saved settings,
 * and the browser checks them with the action's schema before sending (without react-hook-form,
 * decision 091).
 */
export function ApplicationSettingsForm({
  application,
  models,
  itemCount,
}: {
  application: TApplication;
  models: TAvailableModel[];
  itemCount: number;
}) {
  const fetcher = useFetcher<SettingsActionData>({ key: fetcherKey(application.uuid) });
  const result = fetcher.data;
  const errors = result && !result.ok ? result.errors : null;
  const defaults = {
    text_model: selectedOf(application, 'text'),
    embedding_model: selectedOf(application, 'embedding'),
    instructions: application.instructions,
    temperature: application.temperature,
    strictness: application.strictness,
    no_answer_message: application.no_answer_message,
    retention: application.conversation_retention_days === null ? ('forever' as const) : ('days' as const),
    retention_days: String(application.conversation_retention_days ?? DEFAULT_RETENTION_DAYS),
  };
  const form = useSchemaForm(
    () => import('./application-settings-schema').then((m) => m.ZApplicationSettingsForm),
    { serverErrors: errors, onValid: (element) => fetcher.submit(element, { method: 'post' }) },
  );
  const fieldErrors = form.errors;
  // What the form shows of its own values: the temperature's label and the re-indexing warning.
  const [temperature, setTemperature] = useState(Number(defaults.temperature));
  const [embeddingModel, setEmbeddingModel] = useState(defaults.embedding_model);
  const embeddingChanges = embeddingModel !== defaults.embedding_model;
  const keepForDays = useRef<HTMLInputElement>(null);
  const busy = fetcher.state !== 'idle';
  const retentionChoice = (value: 'forever' | 'days', label: string) => (
    <label className="flex w-fit cursor-pointer items-center gap-3">
      <input
        ref={value === 'days' ? keepForDays : undefined}
        type="radio"
        name="retention"
        value={value}
        className="size-4 accent-primary"
        defaultChecked={defaults.retention === value}
      />
      {label}
    </label>
  );

  const textModels = models.filter((m) => m.model_type === 'text');
  const embeddingModels = models.filter((m) => m.model_type === 'embedding');
  const option = (m: TAvailableModel) => (
    <option key={m.uuid} value={m.uuid}>
      {m.provider === 'builtin' ? m.name : `${m.name} · ${m.provider_name}`}
    </option>
  );
  const missing = (uuid: string, list: TAvailableModel[]) =>
    uuid && !list.some((m) => m.uuid === uuid) ? (
      <option value={uuid}>
        {application.llm_models.find((m) => m.uuid === uuid)?.name ?? uuid} (removed)
      </option>
    ) : null;

  return (
    <fetcher.Form
      ref={form.ref}
      method="post"
      noValidate
      className="grid gap-6"
      onSubmit={form.onSubmit}
      onChange={form.onChange}
    >
      <FormError message={errors?.formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="settings-text-model"
          label="Text model"
          description="Writes the answers."
          error={fieldErrors.text_model}
        >
          {(aria) => (
            <NativeSelect {...aria} name="text_model" defaultValue={defaults.text_model}>
              {missing(defaults.text_model, textModels)}
              {textModels.map(option)}
            </NativeSelect>
          )}
        </Field>
        <Field
          id="settings-embedding-model"
          label="Embedding model"
          description="Finds the passages that match a question."
          error={fieldErrors.embedding_model}
        >
          {(aria) => (
            <NativeSelect
              {...aria}
              name="embedding_model"
              defaultValue={defaults.embedding_model}
              onChange={(event) => setEmbeddingModel(event.target.value)}
            >
              {missing(defaults.embedding_model, embeddingModels)}
              {embeddingModels.map(option)}
            </NativeSelect>
          )}
        </Field>
      </div>
      {embeddingChanges && itemCount > 0 ? (
        <Alert>
          <AlertDescription>
            Saving re-indexes all {itemCount} knowledge item{itemCount === 1 ? '' : 's'} with the new
            embedding model. Answers keep working with keyword search meanwhile.
          </AlertDescription>
        </Alert>
      ) : null}
      <p className="-mt-2 text-muted-foreground text-sm">
        More models come from{' '}
        <Link to="/settings/models" className="underline underline-offset-4">
          model providers
        </Link>
        .
      </p>
      <Field
        id="settings-instructions"
        label="Instructions"
        description="Added to every answer, e.g. tone, language, or what to refuse."
        error={fieldErrors.instructions}
      >
        {(aria) => (
          <Textarea
            {...aria}
            name="instructions"
            rows={4}
            maxLength={4000}
            placeholder="e.g. Answer in a friendly tone, in the language of the question."
            defaultValue={defaults.instructions}
          />
        )}
      </Field>
      <Field
        id="settings-temperature"
        label={`Temperature: ${Number.isFinite(temperature) ? temperature.toFixed(1) : '–'}`}
        description="Lower is more focused and repeatable; higher is more varied."
        error={fieldErrors.temperature}
      >
        {(aria) => (
          <input
            {...aria}
            name="temperature"
            type="range"
            min={TEMPERATURE_MIN}
            max={TEMPERATURE_MAX}
            step={0.1}
            className="w-full accent-primary"
            defaultValue={defaults.temperature}
            onChange={(event) => setTemperature(Number(event.target.value))}
          />
        )}
      </Field>
      <fieldset
        className="grid gap-2"
        aria-describedby={fieldErrors.strictness ? 'settings-strictness-error' : undefined}
      >
        <legend className="mb-2 text-sm font-medium leading-none">
          How strictly to stay within the knowledge
        </legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {STRICTNESS_LEVELS.map((level) => (
            <label
              key={level}
              className="flex cursor-pointer gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
            >
              <input
                type="radio"
                name="strictness"
                value={level}
                className="mt-0.5 size-4 accent-primary"
                defaultChecked={level === defaults.strictness}
              />
              <span className="grid content-start gap-1">
                <span className="font-medium">{STRICTNESS_TEXT[level].label}</span>
                <span className="text-muted-foreground">{STRICTNESS_TEXT[level].description}</span>
              </span>
            </label>
          ))}
        </div>
        {fieldErrors.strictness ? (
          <p id="settings-strictness-error" className="text-destructive text-sm">
            {fieldErrors.strictness}
          </p>
        ) : null}
      </fieldset>
      <Field
        id="settings-no-answer-message"
        label="When the knowledge does not cover a question"
        description="What the assistant says instead of an answer, in the chat, the widget, the API and integrations. Leave empty for “Sorry, I don't have information about that.” in the language of the question."
        error={fieldErrors.no_answer_message}
      >
        {(aria) => (
          <Textarea
            {...aria}
            name="no_answer_message"
            rows={2}
            maxLength={NO_ANSWER_MESSAGE_MAX}
            placeholder="Sorry, I don't have information about that."
            defaultValue={defaults.no_answer_message}
          />
        )}
      </Field>
      <fieldset
        className="grid gap-2"
        aria-describedby={`settings-retention-description${fieldErrors.retention_days ? ' settings-retention-error' : ''}`}
      >
        <legend className="mb-2 text-sm font-medium leading-none">Conversations</legend>
        <p id="settings-retention-description" className="text-muted-foreground text-sm">
          A daily clean-up deletes conversations whose last message is older, with their messages and
          notifications. The analytics totals already counted stay.
        </p>
        <div className="text-sm">{retentionChoice('forever', 'Keep forever')}</div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
          {retentionChoice('days', 'Delete conversations after')}
          <Input
            name="retention_days"
            type="number"
            inputMode="numeric"
            min={RETENTION_DAYS_MIN}
            max={RETENTION_DAYS_MAX}
            step={1}
            className="w-24"
            aria-label="Days to keep conversations"
            aria-invalid={fieldErrors.retention_days ? true : undefined}
            aria-describedby={fieldErrors.retention_days ? 'settings-retention-error' : undefined}
            defaultValue={defaults.retention_days}
            onChange={() => {
              // Typing days means deleting after them.
              if (keepForDays.current) keepForDays.current.checked = true;
            }}
          />
          <span>days</span>
        </div>
        {fieldErrors.retention_days ? (
          <p id="settings-retention-error" className="text-destructive text-sm">
            {fieldErrors.retention_days}
          </p>
        ) : null}
      </fieldset>
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </Button>
      </div>
    </fetcher.Form>
  );
}
