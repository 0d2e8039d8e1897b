// The SHA-256 of a media file's bytes, the base of its validators
// (media-validators.ts). Uploads write it into the record; a record without
// one (written before the field existed, or by hand) gets it computed from
// the bytes on disk, once per process and copy: the hash still depends on
// the bytes only, so every node computes the same one. A replica also hashes
// its copies to find those that are no longer the record's bytes.
import { LruCache } from '../../lib/lru-cache.ts';
import { sha256Of } from '../../lib/sha256.ts';
import type { MediaStore, OpenedMediaFile } from '../../storage/media-store.ts';
import type { MediaRecord } from './media-record.ts';

// Hashes of records without one are kept for this many files (64 bytes each, plus the key).
const REMEMBERED = 10_000;

/** Content hashes of media files: the record's own, else computed from the file. */
export class ContentHashes {
  private readonly computed = new LruCache<string, string>(REMEMBERED);
  private readonly running = new Map<string, Promise<string>>();

  constructor(private readonly store: MediaStore) {}

  /** The SHA-256 of a file's bytes, or undefined when its record holds none and the file is missing. */
  async of(workspace: string, record: MediaRecord): Promise<string | undefined> {
    return record.sha256 ?? this.ofCopy(workspace, record.filename);
  }

  /** The SHA-256 of this node's copy of a file, whatever its record says; undefined when the copy is missing. */
  async ofCopy(workspace: string, filename: string): Promise<string | undefined> {
    const file = await this.store.open('file', workspace, filename);
    if (!file) return undefined;
    const key = keyOf(workspace, filename, file);
    const known = this.computed.get(key) ?? (await this.running.get(key));
    if (known !== undefined) {
      await file.close();
      return known;
    }
    const hashing = sha256Of(file.stream()).finally(() => this.running.delete(key));
    this.running.set(key, hashing);
    const sha256 = await hashing;
    this.computed.set(key, sha256);
    return sha256;
  }

  /** Records the hash of a copy just written (hashed while its bytes arrived), so it is not read again to hash it. A missing copy is fine. */
  async remember(workspace: string, filename: string, sha256: string): Promise<void> {
    const file = await this.store.open('file', workspace, filename);
    if (!file) return;
    await file.close();
    this.computed.set(keyOf(workspace, filename, file), sha256);
  }
}

// Size and modification time only tell when a copy changed, so its hash is computed again then.
function keyOf(workspace: string, filename: string, file: Pick<OpenedMediaFile, 'size' | 'modifiedAt'>): string {
  return `${workspace}/${filename}/${file.size}/${file.modifiedAt.getTime()}`;
}
