import { ZCreateWebhookRequest } from '@cairn/contracts/webhooks';
import { z } from 'zod';

/** Checkbox groups arrive as one string, a list, or nothing at all (none ticked). */
const ZChecked = z.preprocess(
  (value) => (Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : []),
  z.array(z.string()),
);

/**
 * The webhook form as posted (every field a string, `events` one value per ticked box), turned into
 * the API's request and checked by the contract's own schema: the browser and the action give the
 * same messages on the same fields. An empty application means every application.
 */
export const ZWebhookForm = z
  .object({
    url: z.string({ error: 'Required' }),
    events: ZChecked,
    application_uuid: z.string().default(''),
    description: z.string().default(''),
  })
  .transform(
    (form): z.input<typeof ZCreateWebhookRequest> => ({
      url: form.url,
      events: form.events as z.input<typeof ZCreateWebhookRequest>['events'],
      application_uuid: form.application_uuid === '' ? null : form.application_uuid,
      description: form.description,
    }),
  )
  .pipe(ZCreateWebhookRequest);

export const WEBHOOK_FIELDS = ['url', 'events', 'application_uuid', 'description'] as const;

/** A form's field errors keyed by field (`events.0` is the events field). */
export function fieldErrorsOf(issues: z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (field && !out[field]) out[field] = issue.message;
  }
  return out;
}
