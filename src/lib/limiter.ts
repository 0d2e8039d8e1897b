// Bounding concurrency without a library: a counter and a FIFO of waiters.

/** Runs a task under the limit, queueing it while `concurrency` tasks are already running. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * Creates a limiter that lets at most `concurrency` tasks run at once, in
 * call order. Use it where callers may fan out thousands of file operations
 * (each holding a file descriptor) with Promise.all.
 */
export function createLimiter(concurrency: number): Limiter {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
