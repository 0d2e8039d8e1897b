// Which version of the replicated state (users, roles, tokens, sessions, the
// session-cookie keys) a primary is at: an epoch that is new on every start
// and a counter that grows with every write of those documents. A replica
// compares versions to know whether it holds a write's outcome yet.
import { randomBytes } from 'node:crypto';
import type { JsonState } from '../state/state-file.ts';

/** The state documents replicas receive; everything else in state/ stays on the primary. */
export const REPLICATED_DOCUMENTS: ReadonlySet<string> = new Set(['users', 'roles', 'tokens', 'sessions', 'session-keys']);

/** The primary's replicated-state version, `{epoch}.{counter}`. */
export class StateVersion {
  private readonly epoch = randomBytes(6).toString('hex');
  private counter = 0;
  private readonly listeners = new Set<() => void>();

  /** The current version. */
  get value(): string {
    return `${this.epoch}.${this.counter}`;
  }

  /** Counts one more write and tells the listeners. */
  bump(): void {
    this.counter += 1;
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` after every bump; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Whether a replica that applied version `applied` holds everything up to `wanted` (same primary run, counter as far). Throws nothing. */
export function holdsVersion(applied: string | undefined, wanted: string): boolean {
  if (applied === undefined) return false;
  const [appliedEpoch, appliedCount] = applied.split('.');
  const [wantedEpoch, wantedCount] = wanted.split('.');
  return appliedEpoch === wantedEpoch && Number(appliedCount) >= Number(wantedCount);
}

/** `state` whose writes of the replicated documents bump `version` once they are on disk. */
export function countingWrites(state: JsonState, version: StateVersion): JsonState {
  return {
    read: (name, fallback) => state.read(name, fallback),
    write: async (name, value) => {
      await state.write(name, value);
      if (REPLICATED_DOCUMENTS.has(name)) version.bump();
    },
  };
}
