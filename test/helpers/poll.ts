// Waiting for something the server does in the background (indexing an
// external commit): retry a probe until it passes. Missing the deadline is a
// failure, not a value: a caller that forgot to assert what it polled would
// otherwise pass without the server ever having done the thing.
import { inspect } from 'node:util';

/**
 * Calls `probe` every `intervalMs` until `accept` returns true for its result,
 * and returns that result. After `timeoutMs` it throws, naming the condition
 * waited for and the last value seen. The deadline guards against a hang; it
 * is not a measurement, so keep it generous.
 */
export async function pollUntil<T>(probe: () => Promise<T>, accept: (value: T) => boolean, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() >= deadline) throw new Error(`pollUntil gave up after ${timeoutMs} ms waiting for ${String(accept)}; last value: ${describe(value)}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

/** The last value, short enough for a test report (a whole HTTP response can be long). */
function describe(value: unknown): string {
  const text = inspect(value, { depth: 4, breakLength: Infinity });
  return text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
}
