// Catching the AppError a call is expected to raise, so tests can assert its
// code and fields; anything else thrown fails the test as it is.
import { AppError } from '../../src/errors/app-error.ts';

/** The AppError `promise` rejects with; fails the test when it resolves or rejects with something else. */
export async function caughtAppError(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('Expected the promise to reject with an AppError.');
}

/** The AppError `fn` throws; fails the test when it returns or throws something else. */
export function thrownAppError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('Expected an AppError.');
}
