import type { z } from 'zod';
import { AppError } from './app-error.ts';

export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** Field problems → one 400 whose `errors` are keyed by field (`items.2.value`), `detail` names the first. */
export function validationError(issues: Issue[]): AppError {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || 'non_field_errors';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  const [field, messages] = Object.entries(errors)[0] ?? ['non_field_errors', ['Invalid input.']];
  return new AppError(
    'invalid',
    field === 'non_field_errors' ? messages[0]! : `${field}: ${messages[0]}`,
    errors,
  );
}

/** Validates input that did not go through a route schema (multipart forms) into the same 400 body. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(result.error.issues);
}
