// The SHA-256 of a media file's bytes, the base of its validators
// (media-validators.ts). Uploads write it into the record; a record without
// one (written before the field existed, or by hand) gets it computed from
// the bytes on disk, once per process and copy: the hash still depends on
// the bytes only, so every node computes the same one. A replica also hashes
// its copies to find those that are no longer the record's bytes.
import { LruCache } from '../../lib/lru-cache.ts';
import { sha256Of } from '../../lib/sha256.ts';
import { bufferedFile, type MediaStore, type OpenedMediaFile } from '../../storage/media-store.ts';

// Hashes of records without one are kept for this many files (64 bytes each, plus the key).
const REMEMBERED = 10_000;
// The largest copy hashed in memory before it is served (ofServed): bounds what a first request holds.
const IN_MEMORY_BYTES = 4 * 1024 * 1024;

/** Content hashes of this node's media copies, computed from their bytes and remembered. */
export class ContentHashes {
  private readonly computed = new LruCache<string, string>(REMEMBERED);
  private readonly running = new Map<string, Promise<string>>();

  constructor(private readonly store: MediaStore) {}

  /**
   * The SHA-256 of an opened copy's bytes, whatever its record says:
   * remembered per copy, else read through `file`, which stays open so the
   * caller serves the very bytes that were hashed. Rejects with the read's error.
   */
  async ofOpened(workspace: string, filename: string, file: OpenedMediaFile): Promise<string> {
    const key = keyOf(workspace, filename, file);
    const known = this.computed.get(key) ?? (await this.running.get(key));
    if (known !== undefined) return known;
    const hashing = sha256Of(file.bytes()).finally(() => this.running.delete(key));
    this.running.set(key, hashing);
    const sha256 = await hashing;
    this.computed.set(key, sha256);
    return sha256;
  }

  /**
   * The SHA-256 of an opened copy about to be served, with the file to serve
   * it from. A copy whose hash must be computed and that holds at most 4 MiB
   * is read once into memory, hashed and served from there (its handle
   * closed), so the first request after a start reads it once; a larger one
   * is hashed through the open file (ofOpened) and read again to be served,
   * the second time mostly from the page cache. Rejects with the read's error.
   */
  async ofServed(workspace: string, filename: string, file: OpenedMediaFile): Promise<{ sha256: string; file: OpenedMediaFile }> {
    const key = keyOf(workspace, filename, file);
    const known = this.computed.get(key) ?? (await this.running.get(key));
    if (known !== undefined || file.size > IN_MEMORY_BYTES) return { sha256: known ?? (await this.ofOpened(workspace, filename, file)), file };
    const chunks: Buffer[] = [];
    for await (const chunk of file.bytes()) chunks.push(chunk as Buffer);
    await file.close();
    const sha256 = await sha256Of(chunks);
    this.computed.set(key, sha256);
    return { sha256, file: bufferedFile(Buffer.concat(chunks)) };
  }

  /** The SHA-256 of this node's copy of a file, whatever its record says; undefined when the copy is missing. Rejects with the read's error. */
  async ofCopy(workspace: string, filename: string): Promise<string | undefined> {
    const file = await this.store.open('file', workspace, filename);
    if (!file) return undefined;
    try {
      return await this.ofOpened(workspace, filename, file);
    } finally {
      await file.close();
    }
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
