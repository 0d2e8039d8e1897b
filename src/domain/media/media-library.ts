// The in-memory picture of every workspace's media metadata and categories,
// which lists and file serving are answered from. Loaded at start, updated by
// MediaService after each commit, and re-read file by file when commits
// arrive from outside the server.
import type { ChangedPath } from '../../storage/content-repo.ts';
import { sortCategories, withAncestors } from './categories.ts';
import { categoriesFromYaml, categoriesPath, filenameOfRecordPath, mediaDir, recordFromYaml, type MediaRecord } from './media-record.ts';
import type { ContentFiles } from '../content/content-writer.ts';
import type { ProblemReporter } from '../content/content-index.ts';

/** Called for every metadata file that cannot be read; the file is skipped. */
export type MediaProblemReporter = ProblemReporter;

interface WorkspaceMedia {
  records: Map<string, MediaRecord>;
  /** The stored category list (categories.yaml). */
  stored: string[];
  /** Records newest first, built on demand and dropped on every change. */
  sorted?: MediaRecord[];
}

/** Media records and categories per workspace. */
export class MediaLibrary {
  private readonly workspaces = new Map<string, WorkspaceMedia>();

  constructor(private readonly repo: ContentFiles, private readonly reportProblem: MediaProblemReporter) {}

  /**
   * Reads every metadata file and the category list of a workspace from
   * `files` (HEAD's by default; an outside commit's for a workspace that
   * commit added).
   */
  async loadWorkspace(workspace: string, files: ContentFiles = this.repo): Promise<void> {
    // Built aside and swapped in whole, so reads during a reload see the old records, never none or half of the new ones.
    const media: WorkspaceMedia = { records: new Map(), stored: [] };
    for (const path of await files.listFiles(mediaDir(workspace))) await this.reload(media, workspace, path, files);
    this.workspaces.set(workspace, media);
  }

  /** Re-reads, from `files` (the last commit's of the run), the metadata files that commits made outside the server changed. */
  async applyExternalChanges(workspace: string, changes: ChangedPath[], files: ContentFiles): Promise<void> {
    for (const change of changes) {
      if (change.path.startsWith(`${mediaDir(workspace)}/`)) await this.reload(this.workspace(workspace), workspace, change.path, files);
    }
  }

  /** Drops every record and category of a workspace that went away (its workspace.yaml removed by a commit); one that comes back is read whole (loadWorkspace). */
  forgetWorkspace(workspace: string): void {
    this.workspaces.delete(workspace);
  }

  /** The record of a file, or undefined. */
  find(workspace: string, filename: string): MediaRecord | undefined {
    return this.workspaces.get(workspace)?.records.get(filename);
  }

  /** Every record of a workspace, newest upload first, then by file name. */
  all(workspace: string): readonly MediaRecord[] {
    const media = this.workspaces.get(workspace);
    if (!media) return [];
    media.sorted ??= [...media.records.values()].sort(newestFirst);
    return media.sorted;
  }

  /** The stored category list as it is in categories.yaml. */
  storedCategories(workspace: string): string[] {
    return [...(this.workspaces.get(workspace)?.stored ?? [])];
  }

  /** Every category path: the stored ones, files' categories and all their parents, sorted (meta.categories). */
  categories(workspace: string): string[] {
    const media = this.workspaces.get(workspace);
    if (!media) return [];
    const all = new Set<string>();
    for (const category of media.stored) for (const path of withAncestors(category)) all.add(path);
    for (const record of media.records.values()) for (const path of withAncestors(record.category)) all.add(path);
    return sortCategories(all);
  }

  /** Stores records after their commit. */
  put(workspace: string, records: MediaRecord[]): void {
    const media = this.workspace(workspace);
    for (const record of records) media.records.set(record.filename, record);
    media.sorted = undefined;
  }

  /**
   * Keeps the stored original's size of a record that names none
   * (stored-sizes.ts) while it is the record held, until it is read again;
   * returns the record with that size.
   */
  rememberSize(workspace: string, record: MediaRecord, size: number): MediaRecord {
    const sized = { ...record, size };
    const media = this.workspaces.get(workspace);
    if (media?.records.get(record.filename) === record) {
      media.records.set(record.filename, sized);
      media.sorted = undefined;
    }
    return sized;
  }

  /** Forgets records after their commit. */
  remove(workspace: string, filenames: string[]): void {
    const media = this.workspace(workspace);
    for (const filename of filenames) media.records.delete(filename);
    media.sorted = undefined;
  }

  /** Replaces the stored category list after its commit. */
  setCategories(workspace: string, categories: string[]): void {
    this.workspace(workspace).stored = [...categories];
  }

  private workspace(workspace: string): WorkspaceMedia {
    let media = this.workspaces.get(workspace);
    if (!media) {
      media = { records: new Map(), stored: [] };
      this.workspaces.set(workspace, media);
    }
    return media;
  }

  private async reload(media: WorkspaceMedia, workspace: string, path: string, files: ContentFiles): Promise<void> {
    const text = await files.readFile(path);
    try {
      if (path === categoriesPath(workspace)) {
        media.stored = text === undefined ? [] : categoriesFromYaml(text);
        return;
      }
      const filename = filenameOfRecordPath(workspace, path);
      if (filename === undefined) return;
      media.sorted = undefined;
      media.records.delete(filename);
      if (text !== undefined) media.records.set(filename, recordFromYaml(filename, text));
    } catch (error) {
      this.reportProblem({ workspace, path, message: error instanceof Error ? error.message : String(error) });
    }
  }
}

function newestFirst(a: MediaRecord, b: MediaRecord): number {
  const left = a.uploaded_at ?? '';
  const right = b.uploaded_at ?? '';
  if (left !== right) return left < right ? 1 : -1;
  return a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0;
}
