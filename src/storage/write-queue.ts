// First-in-first-out queues for read-modify-write sequences: one per content
// repository (every commit), and one per name for state files.

/**
 * Runs async tasks one at a time in the order they were queued. A failing task
 * rejects its own promise only; the queue moves on to the next task.
 */
export class WriteQueue {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private active = false;

  /** Queues `fn` and resolves or rejects with its result once it has run. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    this.queued += 1;
    const result = this.tail.then(async () => {
      this.active = true;
      try {
        return await fn();
      } finally {
        this.active = false;
        this.queued -= 1;
      }
    });
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** True while a task of this queue is executing. */
  get isRunning(): boolean {
    return this.active;
  }

  /** Number of tasks queued or running. */
  get size(): number {
    return this.queued;
  }

  /** Resolves once every task queued so far has settled. */
  async drain(): Promise<void> {
    await this.run(async () => undefined);
  }
}

/**
 * One WriteQueue per key, created on demand and dropped when idle, so tasks
 * on the same key run in order while different keys run concurrently.
 */
export class KeyedWriteQueue {
  private readonly queues = new Map<string, WriteQueue>();

  /** Queues `fn` behind earlier tasks for the same key. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let queue = this.queues.get(key);
    if (queue === undefined) {
      queue = new WriteQueue();
      this.queues.set(key, queue);
    }
    try {
      return await queue.run(fn);
    } finally {
      if (queue.size === 0 && this.queues.get(key) === queue) this.queues.delete(key);
    }
  }
}
