import { data } from 'react-router';
import type { z } from 'zod';
import { type FormErrors, formErrorsOf } from './api-error';

/** Parses a posted form with the same zod schema the browser used; invalid input → 400 with field errors. */
export async function parseForm<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<
  { ok: true; value: z.output<S>; form: FormData } | { ok: false; response: ReturnType<typeof failure> }
> {
  const form = await request.formData();
  const raw: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === 'string') raw[key] = value;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data, form };
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.');
    if (key && !fieldErrors[key]) fieldErrors[key] = issue.message;
  }
  return { ok: false, response: failure({ fieldErrors, formError: null }) };
}

/** An action's failed answer: `{ errors }` with status 400 (or the API's status). */
export function failure(errors: FormErrors, status = 400) {
  return data({ errors }, { status });
}

/** Maps an API failure onto a form that shows `fields`. */
export function apiFailure(error: unknown, fields: readonly string[]) {
  const errors = formErrorsOf(error, fields);
  return failure(errors, 400);
}
