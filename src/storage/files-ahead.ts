// New files for a writer that names them itself (temp names it renames into
// place), made empty ahead of need by the thread pool, so the write path only
// opens, fills and renames them. Creating a file can be a commit's dearest
// step: on ext4 without a journal the inode allocator reads past every inode
// freed in the last minute or more, and a repository that commits and rolls
// up packs frees them by the hundred; there each of a commit pack's two files
// took ~0.25 ms to create, against ~0.02 ms in a fresh folder. The next ones
// are made once the write's caller has finished its turn (answered its
// request). A kill -9 leaves them behind empty, under temp names that the
// next start clears like any other (refs.ts, pack-writer.ts).
import { close, open } from 'node:fs';
import { isNotFound } from '../lib/errno.ts';
import { createFileFromChunks, fillFileFromChunks, removeQuietly } from './atomic-write.ts';

/** Writes new files under fresh names, into files made ahead when there are some. */
export class FilesAhead {
  private readonly ready: string[] = [];
  private making = false;
  private closed = false;

  /**
   * `newPath` gives a fresh name each call (a temp name in one folder);
   * `count` files are kept made ahead, starting at the first write. With 0,
   * every file is created on the write path.
   */
  constructor(
    private readonly newPath: () => string,
    private readonly count: number,
  ) {}

  /**
   * Writes `chunks` as a new file with permission bits `mode` and returns its
   * path. Throws what writing throws (ENOSPC, EFBIG…); the file is gone then.
   */
  write(chunks: Uint8Array[], mode: number): string {
    try {
      return this.writeInto(this.ready.shift(), chunks, mode);
    } finally {
      this.makeMore();
    }
  }

  /** Removes the files made ahead and makes no more. */
  close(): void {
    this.closed = true;
    for (const file of this.ready.splice(0)) removeQuietly(file);
  }

  private writeInto(made: string | undefined, chunks: Uint8Array[], mode: number): string {
    if (made !== undefined) {
      try {
        fillFileFromChunks(made, chunks, mode);
        return made;
      } catch (error) {
        removeQuietly(made);
        // Removed meanwhile (by hand, or a clean-up of temp files): a new file instead.
        if (!isNotFound(error)) throw error;
      }
    }
    const file = this.newPath();
    try {
      createFileFromChunks(file, chunks, mode);
    } catch (error) {
      removeQuietly(file);
      throw error;
    }
    return file;
  }

  // From the event loop's next turn: the write's caller finishes its work
  // (answers its request) first, which on a single core would otherwise wait
  // for the thread pool's making.
  private makeMore(): void {
    if (this.making || this.closed || this.ready.length >= this.count) return;
    this.making = true;
    setImmediate(() => {
      void this.make().then((allMade) => {
        this.making = false;
        // Writes may have taken more meanwhile; after a failure (a full disk) the next write tries again.
        if (allMade) this.makeMore();
      });
    });
  }

  // All at once: each file is one thread-pool call, its answer one turn of
  // the event loop, which a busy write path gives only a few per commit.
  private async make(): Promise<boolean> {
    if (this.closed) return false;
    const made = await Promise.all(Array.from({ length: this.count - this.ready.length }, () => createEmpty(this.newPath())));
    for (const file of made) {
      if (file === undefined) continue;
      if (this.closed) removeQuietly(file);
      else this.ready.push(file);
    }
    return !made.includes(undefined);
  }
}

// Resolves with `file` once it exists, empty; undefined when it cannot be made (write() then creates its file itself and reports what fails).
function createEmpty(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    open(file, 'wx', 0o600, (error, fd) => {
      if (error) return resolve(undefined);
      // A close that fails still leaves the empty file, which is all a write needs.
      close(fd, () => resolve(file));
    });
  });
}
