// The state folder: users, roles, token hashes, sessions, settings, webhooks
// and logs, which never go into the content repo. Each document is one JSON
// file (`{name}.json`), replaced atomically and readable only by the server's
// user (0600); logs are JSON-lines files (`{name}.jsonl`) rotated by size.
import { appendFileSync, renameSync, statSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors/app-error.ts';
import { isNotFound } from '../lib/errno.ts';
import { isAtomicWriteTemp, writeFileAtomic } from './atomic-write.ts';
import { isSafeSegment } from './safe-path.ts';
import { KeyedWriteQueue } from './write-queue.ts';

/** A JSON-lines log is rotated to `{name}.jsonl.1` once it grows past this many bytes. */
export const LOG_ROTATE_BYTES = 5 * 1024 * 1024;

/** Options of the state store. */
export interface StateStoreOptions {
  /** Size in bytes past which appendLine() rotates a log; LOG_ROTATE_BYTES by default. */
  logRotateBytes?: number;
}

const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/**
 * JSON documents and logs in one folder. Writes and updates of the same name
 * run one at a time, in call order, so concurrent read-modify-writes never
 * lose each other's changes; different names proceed independently.
 */
export class StateStore {
  private readonly queue = new KeyedWriteQueue();
  /** Per log, the lines of the append that is queued and has not started. */
  private readonly pendingLines = new Map<string, { lines: string[]; written: Promise<void> }>();

  private constructor(
    readonly dir: string,
    private readonly logRotateBytes: number,
  ) {}

  /** Opens the state folder, creating it (0700) and removing temp files a crash left behind. */
  static async open(dir: string, options: StateStoreOptions = {}): Promise<StateStore> {
    const root = path.resolve(dir);
    await mkdir(root, { recursive: true, mode: FOLDER_MODE });
    await chmod(root, FOLDER_MODE);
    for (const name of await readdir(root)) {
      if (isAtomicWriteTemp(name)) await unlink(path.join(root, name)).catch(() => undefined);
    }
    return new StateStore(root, options.logRotateBytes ?? LOG_ROTATE_BYTES);
  }

  /** Reads document `name`, or returns `fallback` when it does not exist. Throws `internal_error` for an unsafe name; rethrows unreadable JSON. */
  async read<T>(name: string, fallback: T): Promise<T> {
    let text: string;
    try {
      text = await readFile(this.fileOf(name, '.json'), 'utf8');
    } catch (error) {
      if (isNotFound(error)) return fallback;
      throw error;
    }
    const value: T = JSON.parse(text);
    return value;
  }

  /** Replaces document `name` atomically (temp file, fsync, rename), after earlier writes of the same name. */
  write<T>(name: string, value: T): Promise<void> {
    const file = this.fileOf(name, '.json');
    return this.queue.run(name, () => this.store(file, value));
  }

  /**
   * Read-modify-write of document `name`: `change` receives the current value
   * (or `fallback`) and returns the next one, which is stored and returned.
   * Serialized per name; a throwing `change` stores nothing.
   */
  update<T>(name: string, fallback: T, change: (current: T) => T | Promise<T>): Promise<T> {
    const file = this.fileOf(name, '.json');
    return this.queue.run(name, async () => {
      const next = await change(await this.read(name, fallback));
      await this.store(file, next);
      return next;
    });
  }

  /** Deletes document `name`; a missing document is fine. */
  remove(name: string): Promise<void> {
    const file = this.fileOf(name, '.json');
    return this.queue.run(name, async () => {
      await unlink(file).catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
      });
    });
  }

  /**
   * Appends one line (newlines become spaces) to log `name`, first rotating it
   * to `{name}.jsonl.1` when it is past the size limit. Lines that arrive
   * while an append of the log is queued join it: one write for a burst (a
   * commit of thousands of entries logs thousands of lines). Resolves once
   * the line is written.
   */
  appendLine(name: string, line: string): Promise<void> {
    const file = this.fileOf(name, '.jsonl');
    let batch = this.pendingLines.get(name);
    if (batch === undefined) {
      const lines: string[] = [];
      const written = this.queue.run(`log:${name}`, async () => {
        // Lines from now on go to the next append.
        this.pendingLines.delete(name);
        // Synchronous calls: a log line is a small append to a file in the
        // page cache, cheaper than four thread-pool round trips per write.
        if (sizeOf(file) >= this.logRotateBytes) renameSync(file, `${file}.1`);
        appendFileSync(file, lines.map((text) => `${text.replace(/[\r\n]+/g, ' ')}\n`).join(''), { mode: FILE_MODE });
      });
      batch = { lines, written };
      this.pendingLines.set(name, batch);
    }
    batch.lines.push(line);
    return batch.written;
  }

  /** The lines of log `name`, the rotated (older) lines first. */
  async readLines(name: string): Promise<string[]> {
    const file = this.fileOf(name, '.jsonl');
    const texts = await Promise.all(
      [`${file}.1`, file].map((candidate) =>
        readFile(candidate, 'utf8').catch((error: unknown) => {
          if (isNotFound(error)) return '';
          throw error;
        }),
      ),
    );
    return texts.join('').split('\n').filter((line) => line !== '');
  }

  private async store(file: string, value: unknown): Promise<void> {
    await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, { mode: FILE_MODE });
  }

  private fileOf(name: string, extension: string): string {
    if (!isSafeSegment(name)) throw new AppError('internal_error', `The state document name "${name}" is not a safe file name.`);
    return path.join(this.dir, name + extension);
  }
}

// A file's size; 0 when it does not exist (yet).
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    if (isNotFound(error)) return 0;
    throw error;
  }
}
