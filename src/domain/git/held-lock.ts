// The content writer's lock, held across steps that are not one function
// call: a push takes it when receive-pack asks whether the push may land and
// gives it back once the branch has moved (or not), so no API write can slip
// between the checks and the ref update.
import type { ContentTransaction, ContentWriter } from '../content/content-writer.ts';

/** A transaction that stays open until release() is called. */
export interface HeldLock {
  tx: ContentTransaction;
  /** Ends the transaction; later writes may run. Calling it twice is harmless. */
  release(): void;
}

/** Waits for the write lock (after every earlier write) and holds it. Throws what the writer throws. */
export function holdWriteLock(writer: ContentWriter): Promise<HeldLock> {
  return new Promise((resolve, reject) => {
    writer
      .transaction((tx) => new Promise<void>((release) => resolve({ tx, release: () => release() })))
      .catch(reject);
  });
}
