import { API_KEY_RPM_DEFAULT, ZCreateApiKeyRequest } from '@cairn/contracts/api-keys';
import dayjs from 'dayjs';
import { z } from 'zod';

/**
 * The create-key form as posted (every field a string), turned into the API's request and checked by
 * the contract's own schema, so the browser and the action give the same messages on the same fields.
 * An empty `expires_at` means the key never expires.
 */
export const ZCreateApiKeyForm = z
  .object({
    name: z.string({ error: 'Required' }),
    expires_at: z.string().default(''),
    requests_per_minute: z.string().default(String(API_KEY_RPM_DEFAULT)),
  })
  .transform(
    (form): z.input<typeof ZCreateApiKeyRequest> => ({
      name: form.name,
      expires_at: form.expires_at.trim() === '' ? null : form.expires_at,
      // Number('') is 0, which would read as "At least 1" for a field the user simply emptied.
      requests_per_minute:
        form.requests_per_minute.trim() === '' ? Number.NaN : Number(form.requests_per_minute),
    }),
  )
  .pipe(ZCreateApiKeyRequest);

export const CREATE_API_KEY_FIELDS = ['name', 'expires_at', 'requests_per_minute'] as const;

/** Expiry choices of the create form, in days; `custom` asks for a date. GitHub's presets, plus a year. */
export const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'custom', label: 'On a date…' },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

/**
 * The `expires_at` a choice stands for, computed in the browser when the form is sent: a chosen date
 * lasts until the end of that day where the user is, which only the browser knows. `undefined`: a
 * date was asked for but none given.
 */
export function expiresAtOf(choice: ExpiryChoice, date: string, now = dayjs()): string | undefined {
  if (choice === 'never') return '';
  if (choice === 'custom') {
    const day = dayjs(date);
    return date && day.isValid() ? day.endOf('day').toISOString() : undefined;
  }
  return now.add(Number(choice), 'day').toISOString();
}
