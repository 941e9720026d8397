import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
} from '@cairn/contracts/webhooks';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { NativeSelect } from '../models/native-select';

export interface WebhookFormValues {
  url: string;
  events: string[];
  application_uuid: string;
  description: string;
}

/** URL, events, application and description: the fields of the create and edit dialogs. */
export function WebhookFields({
  idPrefix,
  register,
  errors,
  applications,
}: {
  idPrefix: string;
  register: UseFormRegister<WebhookFormValues>;
  errors: FieldErrors<WebhookFormValues>;
  applications: Array<{ uuid: string; name: string }>;
}) {
  const eventsError = errors.events?.message ?? errors.events?.[0]?.message;
  const eventsErrorId = `${idPrefix}-events-error`;
  return (
    <>
      <Field
        id={`${idPrefix}-url`}
        label="Endpoint URL"
        description="Cairn POSTs each event here as JSON. A public https:// address; redirects are not followed."
        error={errors.url?.message}
      >
        {(aria) => (
          <Input
            {...aria}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            maxLength={WEBHOOK_URL_MAX}
            placeholder="https://example.com/webhooks/cairn"
            {...register('url')}
          />
        )}
      </Field>
      <fieldset className="grid gap-2" aria-describedby={eventsError ? eventsErrorId : undefined}>
        <legend className="mb-2 font-medium text-sm">Events</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => {
            const id = `${idPrefix}-event-${type.replaceAll('.', '-')}`;
            return (
              <div key={type} className="flex items-start gap-2 rounded-md border px-3 py-2">
                <input
                  id={id}
                  type="checkbox"
                  value={type}
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                  aria-describedby={`${id}-description`}
                  {...register('events')}
                />
                <div className="grid min-w-0 gap-0.5">
                  <label htmlFor={id} className="font-mono text-sm leading-5 wrap-anywhere">
                    {type}
                  </label>
                  <span id={`${id}-description`} className="text-muted-foreground text-xs">
                    {WEBHOOK_EVENT_DESCRIPTIONS[type]}
                  </span>
                </div>
              </div>
            );
          })}
        </div>
        {eventsError ? (
          <p id={eventsErrorId} className="text-destructive text-sm" data-field-error>
            {eventsError}
          </p>
        ) : null}
      </fieldset>
      <Field
        id={`${idPrefix}-application`}
        label="Application"
        description="Only this application's events, or every application's."
        error={errors.application_uuid?.message}
      >
        {(aria) => (
          <NativeSelect {...aria} {...register('application_uuid')}>
            <option value="">All applications</option>
            {applications.map((app) => (
              <option key={app.uuid} value={app.uuid}>
                {app.name}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Field
        id={`${idPrefix}-description`}
        label="Description (optional)"
        error={errors.description?.message}
      >
        {(aria) => (
          <Input
            {...aria}
            autoComplete="off"
            maxLength={WEBHOOK_DESCRIPTION_MAX}
            placeholder="e.g. CRM sync"
            {...register('description')}
          />
        )}
      </Field>
    </>
  );
}
