import { expect } from 'vitest';
import { ParseError } from '../rag/parse/parse-error.ts';

/** The ParseError a parse was refused with (the test fails when it was not refused). */
export async function parseRefusal(promise: Promise<unknown>): Promise<ParseError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ParseError);
  return error as ParseError;
}
