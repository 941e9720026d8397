import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { expiresAtOf, ZCreateApiKeyForm } from './create-api-key-form';

const errorsOf = (raw: Record<string, string>) => {
  const parsed = ZCreateApiKeyForm.safeParse(raw);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
};

describe('create-key form', () => {
  it('turns the posted strings into the API request', () => {
    const future = dayjs().add(1, 'day').toISOString();
    expect(
      ZCreateApiKeyForm.parse({
        name: '  CI  ',
        expires_at: future,
        requests_per_minute: '120',
        intent: 'x',
      }),
    ).toEqual({ name: 'CI', expires_at: future, requests_per_minute: 120 });
    expect(ZCreateApiKeyForm.parse({ name: 'CI', expires_at: '', requests_per_minute: '60' })).toEqual({
      name: 'CI',
      expires_at: null,
      requests_per_minute: 60,
    });
  });

  it("gives the contract's messages on the form's fields", () => {
    expect(errorsOf({ name: ' ', expires_at: '', requests_per_minute: '60' })).toEqual({ name: 'Required' });
    expect(errorsOf({ name: 'a'.repeat(101), expires_at: '', requests_per_minute: '60' })).toEqual({
      name: 'At most 100 characters',
    });
    expect(errorsOf({ name: 'CI', expires_at: '', requests_per_minute: '0' })).toEqual({
      requests_per_minute: 'At least 1',
    });
    expect(errorsOf({ name: 'CI', expires_at: '', requests_per_minute: '10001' })).toEqual({
      requests_per_minute: 'At most 10,000',
    });
    expect(errorsOf({ name: 'CI', expires_at: '', requests_per_minute: '' })).toEqual({
      requests_per_minute: 'Must be a number',
    });
    expect(errorsOf({ name: 'CI', expires_at: '', requests_per_minute: '1.5' })).toEqual({
      requests_per_minute: 'Must be a whole number',
    });
    expect(
      errorsOf({
        name: 'CI',
        expires_at: dayjs().subtract(1, 'day').toISOString(),
        requests_per_minute: '60',
      }),
    ).toEqual({ expires_at: 'Must be in the future' });
  });
});

describe('expiry choices', () => {
  const now = dayjs('2026-03-10T12:00:00Z');
  it('counts days from now, or lasts until the end of the chosen day, or never ends', () => {
    expect(expiresAtOf('never', '', now)).toBe('');
    expect(expiresAtOf('30', '', now)).toBe('2026-04-09T12:00:00.000Z');
    expect(expiresAtOf('custom', '2026-05-01', now)).toBe(dayjs('2026-05-01').endOf('day').toISOString());
    expect(expiresAtOf('custom', '', now)).toBeUndefined();
  });
});
