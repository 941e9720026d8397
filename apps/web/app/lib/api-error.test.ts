import { describe, expect, it } from 'vitest';
import {
  ApiError,
  fieldErrorsOf,
  formErrorsOf,
  MESSAGE_REQUEST_FAILED,
  MESSAGE_UNKNOWN_ERROR,
  normalizeError,
} from './api-error';

/** The shape ofetch's FetchError has: message, status, and the parsed body in `data`. */
function fetchError(status: number | undefined, data: unknown, message = '[GET] "/x": 400 Bad Request') {
  return Object.assign(new Error(message), { name: 'FetchError', status, statusCode: status, data });
}

describe('normalizeError message precedence (specification §8)', () => {
  it('joins the server errors array with ", " first', () => {
    const e = normalizeError(
      fetchError(400, { errors: ['First', 'Second'], detail: 'Detail', message: 'M' }),
    );
    expect(e.message).toBe('First, Second');
    expect(e.status).toBe(400);
    expect(e.errors).toEqual(['First', 'Second']);
  });

  it('then the detail field', () => {
    const e = normalizeError(
      fetchError(403, { detail: 'Verify first', code: 'email_not_verified', message: 'M' }),
    );
    expect(e.message).toBe('Verify first');
    expect(e.code).toBe('email_not_verified');
  });

  it('uses detail when errors is a field object (fields are shown on the form instead)', () => {
    const e = normalizeError(fetchError(400, { detail: 'Validation failed', errors: { email: ['Taken'] } }));
    expect(e.message).toBe('Validation failed');
    expect(e.errors).toEqual({ email: ['Taken'] });
  });

  it('then the data message, then a nested data message or detail', () => {
    expect(normalizeError(fetchError(500, { message: 'From message' })).message).toBe('From message');
    expect(normalizeError(fetchError(500, { data: { message: 'Nested message' } })).message).toBe(
      'Nested message',
    );
    expect(normalizeError(fetchError(500, { data: { detail: 'Nested detail' } })).message).toBe(
      'Nested detail',
    );
  });

  it('then the generic error message', () => {
    expect(normalizeError(fetchError(502, 'not json', 'Bad gateway')).message).toBe('Bad gateway');
    expect(normalizeError(new TypeError('fetch failed')).message).toBe('fetch failed');
  });

  it("then 'Request failed'", () => {
    const e = normalizeError(fetchError(500, {}, ''));
    expect(e.message).toBe(MESSAGE_REQUEST_FAILED);
    expect(e.status).toBe(500);
  });

  it("gives 'Unknown error' for inputs that are not errors", () => {
    for (const input of ['boom', 42, null, undefined]) {
      const e = normalizeError(input);
      expect(e.message).toBe(MESSAGE_UNKNOWN_ERROR);
      expect(e.original).toBe(input);
    }
  });

  it('keeps the original error and passes ApiErrors through', () => {
    const original = fetchError(404, { detail: 'Not found.' });
    const e = normalizeError(original);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.original).toBe(original);
    expect(normalizeError(e)).toBe(e);
  });

  it('ignores blank candidates', () => {
    expect(normalizeError(fetchError(400, { errors: [], detail: '  ', message: 'Real' })).message).toBe(
      'Real',
    );
  });
});

describe('field errors (specification §5)', () => {
  it('joins each field list with ", "', () => {
    const e = normalizeError(
      fetchError(400, { detail: 'x', errors: { password: ['Too short', 'Too common'] } }),
    );
    expect(fieldErrorsOf(e)).toEqual({ password: 'Too short, Too common' });
  });

  it('puts errors of shown fields on the fields and the rest in the form-level message', () => {
    const error = fetchError(400, {
      detail: 'Invalid input',
      errors: { email: ['Taken'], token: ['Expired'] },
    });
    expect(formErrorsOf(error, ['email', 'password'])).toEqual({
      fieldErrors: { email: 'Taken' },
      formError: 'Expired',
    });
  });

  it('a plain error becomes the form-level message', () => {
    expect(formErrorsOf(fetchError(400, { detail: 'Invalid email or password' }), ['email'])).toEqual({
      fieldErrors: {},
      formError: 'Invalid email or password',
    });
  });
});
