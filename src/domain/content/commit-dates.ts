// Dates from git (docs/static-sites.md): a commit made outside the server that
// changes an entry's files without changing its `lastmod` moves the entry's
// updated_at to the time of the commit. The server does not rewrite the
// developer's files for it, so the date is kept in the state folder with the
// `lastmod` the file had, and it holds while the file still says that: once the
// server writes the entry (or a commit sets `lastmod`), the file speaks again.
import type { StateStore } from '../../storage/state-store.ts';

interface CommitDate {
  /** The entry's updated_at: the time of the commit that changed the file. */
  at: string;
  /** The updated_at the root file said then. */
  file: string;
}

const STATE_NAME = 'commit-dates';

/** The commit dates of entries, by root file path; one per server. */
export class CommitDates {
  private unsaved = false;

  private constructor(
    private readonly state: Pick<StateStore, 'write'>,
    private readonly dates: Map<string, CommitDate>,
  ) {}

  /** Reads the kept dates. Throws what the state store throws. */
  static async load(state: Pick<StateStore, 'read' | 'write'>): Promise<CommitDates> {
    const saved = await state.read<Record<string, CommitDate>>(STATE_NAME, {});
    return new CommitDates(state, new Map(Object.entries(saved)));
  }

  /** An empty set that keeps nothing (`cms check`, tests). */
  static none(): CommitDates {
    return new CommitDates({ write: async () => undefined }, new Map());
  }

  /** Whether no date is kept (then start-up need not look entries up). */
  get isEmpty(): boolean {
    return this.dates.size === 0;
  }

  /** The updated_at of the entry whose root file at `path` says `fileValue`. */
  updatedAt(path: string, fileValue: string): string {
    const date = this.dates.get(path);
    if (date === undefined) return fileValue;
    if (date.file === fileValue) return date.at;
    this.dates.delete(path);
    return fileValue;
  }

  /**
   * The updated_at after a commit at `committedAt` changed the entry's files:
   * the commit's time when the file's value is what readers saw before
   * (`shownBefore`), else the file's own value.
   */
  afterCommit(path: string, fileValue: string, shownBefore: string, committedAt: string): string {
    const shown = this.updatedAt(path, fileValue);
    if (shown !== shownBefore) return shown;
    this.dates.set(path, { at: committedAt, file: fileValue });
    this.unsaved = true;
    return committedAt;
  }

  /** Stores the dates when a commit added any since the last save. Throws what the state store throws. */
  async save(): Promise<void> {
    if (!this.unsaved) return;
    this.unsaved = false;
    await this.state.write(STATE_NAME, Object.fromEntries(this.dates));
  }
}
