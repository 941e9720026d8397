import { AppError } from './app-error.ts';

type Results<T extends Array<() => unknown>> = { [K in keyof T]: ReturnType<T[K]> };

/**
 * Runs several validations and, if any fails with field errors, throws one 400 that merges them
 * all (a form shows every problem at once, not the first only).
 */
export function collectErrors<T extends Array<() => unknown>>(...checks: T): Results<T> {
  const results: unknown[] = [];
  let merged: Record<string, string[]> | undefined;
  let first: AppError | undefined;
  for (const check of checks) {
    try {
      results.push(check());
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid' || Array.isArray(error.errors))
        throw error;
      first ??= error;
      merged = { ...merged, ...(error.errors ?? {}) };
    }
  }
  if (first) throw new AppError('invalid', first.detail, merged);
  return results as Results<T>;
}
