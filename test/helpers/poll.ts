// Waiting for something the server does in the background (indexing an
// external commit): retry a probe until it passes or the deadline passes.

/**
 * Calls `probe` every `intervalMs` until `accept` returns true for its result,
 * and returns that result; after `timeoutMs` returns the last result anyway so
 * that the caller's assertion reports what was actually seen.
 */
export async function pollUntil<T>(probe: () => Promise<T>, accept: (value: T) => boolean, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 2000);
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
