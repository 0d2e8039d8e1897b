// The one error type (STYLE.md "Errors"): a code from error-codes.ts, a
// full-sentence message, and optional per-field messages and details. HTTP
// statuses are not here; http/error-handler.ts maps codes to them.
import type { ErrorCode } from './error-codes.ts';

/** Per-field messages, keyed by field name, sent as `error.fields`. */
export type FieldErrors = Record<string, string>;

/** The optional parts of an AppError besides code and message. */
export interface AppErrorOptions {
  fields?: FieldErrors;
  /** Extra facts for the response or the log (e.g. `retryAfter` seconds, `allow` methods). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The one error type of the project: every failure the client may see is an
 * AppError with a code from ERROR_CODES; http/error-handler.ts renders it.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.fields = options.fields;
    this.details = options.details;
  }
}

/** Whether `value` is an AppError, for code that translates foreign errors. */
export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Shorthand for the common 404. */
export function notFound(message: string): AppError {
  return new AppError('not_found', message);
}

/** Shorthand for a 422 with per-field messages. */
export function validationFailed(fields: FieldErrors, message = 'The request did not pass validation.'): AppError {
  return new AppError('validation_failed', message, { fields });
}
