import { ERROR_STATUS, type ErrorCode, type TErrorBody } from '@cairn/contracts/errors';

/** The one error type of the API; the error handler turns it into the documented body. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: TErrorBody['errors'],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[code];
  }

  toBody(): TErrorBody {
    return this.errors
      ? { detail: this.detail, code: this.code, errors: this.errors }
      : { detail: this.detail, code: this.code };
  }
}

export const notFound = (what = 'Not found.') => new AppError('not_found', what);

/** A 400 whose problems are keyed by field, as forms show them. */
export function fieldError(field: string, message: string): AppError {
  return new AppError('invalid', message, { [field]: [message] });
}
