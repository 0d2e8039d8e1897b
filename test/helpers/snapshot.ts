// A fingerprint of a data root, to prove that a rejected request wrote
// nothing: the content repo's HEAD and `git status`, and a hash of every file
// (the repo's .git included, so a stray object or index write shows too).
import { createHash } from 'node:crypto';
import { readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { contentRepoOf, headOid, serverIndexSettled, statusPorcelain } from './git.ts';

export interface DataRootSnapshot {
  head: string;
  status: string;
  /** Path relative to the data root → sha256 of the content (or of the link target for symlinks). */
  files: Record<string, string>;
}

export interface SnapshotOptions {
  /**
   * Top-level folders of the data root left out. By default `state` (sessions
   * and the batched "last used" time of tokens change on reads, not writes)
   * and `cache` (rebuildable thumbnails).
   */
  ignore?: string[];
}

const DEFAULT_IGNORE = ['state', 'cache'];

/** Takes a snapshot of the data root. */
export async function snapshotDataRoot(dataDir: string, options: SnapshotOptions = {}): Promise<DataRootSnapshot> {
  const repo = contentRepoOf(dataDir);
  await serverIndexSettled(repo);
  const ignore = new Set(options.ignore ?? DEFAULT_IGNORE);
  const files: Record<string, string> = {};
  await hashTree(dataDir, '', ignore, files);
  return { head: await headOid(repo), status: await statusPorcelain(repo), files };
}

/** Human-readable differences between two snapshots; empty when nothing changed. */
export function diffSnapshots(before: DataRootSnapshot, after: DataRootSnapshot): string[] {
  const differences: string[] = [];
  if (before.head !== after.head) differences.push(`HEAD moved from ${before.head} to ${after.head}`);
  if (before.status !== after.status) differences.push(`git status changed from ${JSON.stringify(before.status)} to ${JSON.stringify(after.status)}`);
  const paths = new Set([...Object.keys(before.files), ...Object.keys(after.files)]);
  for (const file of [...paths].sort()) {
    const was = before.files[file];
    const now = after.files[file];
    if (was === now) continue;
    if (was === undefined) differences.push(`added ${file}`);
    else if (now === undefined) differences.push(`removed ${file}`);
    else differences.push(`modified ${file}`);
  }
  return differences;
}

async function hashTree(root: string, relative: string, ignore: Set<string>, files: Record<string, string>): Promise<void> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true });
  for (const entry of entries) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (relative === '' && ignore.has(entry.name)) continue;
    const absolute = path.join(root, child);
    if (entry.isDirectory()) await hashTree(root, child, ignore, files);
    else if (entry.isSymbolicLink()) files[child] = `link:${await readlink(absolute)}`;
    else if (entry.isFile()) files[child] = createHash('sha256').update(await readFile(absolute)).digest('hex');
  }
}
