// Filling in the `sha256` of media records that have none (written before
// the field existed, or by hand): `cms media hash` (docs/cli.md). Without it
// every process hashes such a file again on its first request
// (content-hashes.ts). The files are hashed first, outside the write lock;
// then one commit per workspace writes the hashes through MediaWriter, for
// records that still lack one. Files that are missing, or whose size is not
// the record's, are reported and left without a hash: the hash would name
// bytes the record does not describe.
import { sha256Of } from '../../lib/sha256.ts';
import type { MediaStore } from '../../storage/media-store.ts';
import type { ContentWriter } from '../content/content-writer.ts';
import type { MediaLibrary } from './media-library.ts';
import type { MediaWriter } from './media-writer.ts';
import { counted } from '../../lib/counted.ts';

/** What backfillHashes() reads and writes with. */
export interface HashBackfillDeps {
  writer: Pick<ContentWriter, 'transaction'>;
  library: Pick<MediaLibrary, 'all' | 'find'>;
  store: Pick<MediaStore, 'open'>;
  mediaWriter: Pick<MediaWriter, 'apply'>;
}

/** A file of a record without sha256 that was left without one, and why. */
export interface HashProblem {
  filename: string;
  message: string;
}

/** What a backfill of one workspace found and wrote. */
export interface HashBackfill {
  /** The files whose hash was computed, with it, by name. */
  hashed: { filename: string; sha256: string }[];
  problems: HashProblem[];
  /** The commit that recorded the hashes; undefined when nothing was written (none to record, or `dryRun`). */
  commit?: string;
}

/**
 * Computes the SHA-256 of every file of `workspace` whose record has none and,
 * unless `dryRun`, records them in one commit by the system (no events: the
 * media items do not change, nor do their validators, which were this hash
 * already). Throws what reading a file or the commit throws.
 */
export async function backfillHashes(deps: HashBackfillDeps, workspace: string, options: { dryRun: boolean }): Promise<HashBackfill> {
  const result: HashBackfill = { hashed: [], problems: [] };
  for (const record of deps.library.all(workspace)) {
    if (record.sha256 !== null) continue;
    const file = await deps.store.open('file', workspace, record.filename);
    if (!file) {
      result.problems.push({ filename: record.filename, message: 'The file is missing on disk.' });
      continue;
    }
    if (record.size > 0 && file.size !== record.size) {
      await file.close();
      result.problems.push({ filename: record.filename, message: `The file on disk has ${file.size} bytes, its record says ${record.size}; it was left without a hash.` });
      continue;
    }
    result.hashed.push({ filename: record.filename, sha256: await sha256Of(file.stream()) });
  }
  if (options.dryRun || result.hashed.length === 0) return result;
  result.commit = await deps.writer.transaction(async (tx) => {
    // A record changed since it was read keeps what it has now; one that got a hash meanwhile keeps that one.
    const put = result.hashed.flatMap(({ filename, sha256 }) => {
      const current = deps.library.find(workspace, filename);
      return current && current.sha256 === null ? [{ ...current, sha256 }] : [];
    });
    if (put.length === 0) return undefined;
    const message = `Record the SHA-256 of ${counted(put.length, 'media file', 'media files')}`;
    return (await deps.mediaWriter.apply(tx, 'system', workspace, { message, put, events: [] })).oid;
  });
  return result;
}
