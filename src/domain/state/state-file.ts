// One JSON document of the state folder held in memory: reads never touch
// the disk, writes go through the StateStore (atomic), one at a time and
// always with the latest value, optionally debounced for hot, low-value
// updates such as "last used" times.
import type { StateStore } from '../../storage/state-store.ts';

/** The slice of StateStore this module needs (kept small so tests can fake it). */
export type JsonState = Pick<StateStore, 'read' | 'write'>;

/**
 * A state document loaded once and saved whole. Used by the account, token
 * and session stores, which treat memory as the source of truth.
 */
export class StateFile<T> {
  value: T;
  private readonly state: JsonState;
  private readonly name: string;
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  private constructor(state: JsonState, name: string, value: T) {
    this.state = state;
    this.name = name;
    this.value = value;
  }

  /** Reads `name` from the state folder, or starts from `fallback`. Throws what the store throws. */
  static async open<T>(state: JsonState, name: string, fallback: T): Promise<StateFile<T>> {
    return new StateFile(state, name, await state.read<T>(name, fallback));
  }

  /** Writes the current value now (after any write in flight); resolves when it is on disk. */
  save(): Promise<void> {
    this.cancelTimer();
    const next = this.writing.then(() => this.state.write(this.name, this.value));
    // Keep the chain alive after a failed write; the caller still sees the error.
    this.writing = next.catch(() => undefined);
    return next;
  }

  /**
   * Sets a new value at once (so concurrent callers build on it) and saves
   * it; if the write fails and nobody replaced it since, the old value comes
   * back. Throws what the store throws.
   */
  async replace(next: T): Promise<void> {
    const previous = this.value;
    this.value = next;
    try {
      await this.save();
    } catch (error) {
      if (this.value === next) this.value = previous;
      throw error;
    }
  }

  /** Schedules a save within `delayMs` unless one is already scheduled; never throws. */
  saveSoon(delayMs: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save().catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }

  /** Writes a scheduled save now, so nothing is lost on shutdown. */
  async flush(): Promise<void> {
    if (this.timer) await this.save();
    else await this.writing;
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
