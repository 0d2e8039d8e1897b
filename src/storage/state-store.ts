// The state folder: users, roles, token hashes, sessions, settings and logs,
// which never go into the content repo. Each document is one JSON file,
// replaced atomically and readable only by the server's user.
import { appendFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors/app-error.ts';
import { errnoCode } from '../lib/errno.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { isSafeSegment } from './safe-path.ts';

const FILE_MODE = 0o600;
/** A JSON-lines log is rotated to `{name}.1` once it grows past this many bytes. */
export const LOG_ROTATE_BYTES = 5 * 1024 * 1024;

export class StateStore {
  private readonly chains = new Map<string, Promise<unknown>>();

  private constructor(readonly dir: string) {}

  /** Opens (and creates, mode 0700) the state folder. */
  static async open(dir: string): Promise<StateStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new StateStore(dir);
  }

  /** Reads document `name`, or returns `fallback` when it does not exist yet. Throws on unreadable JSON. */
  async read<T>(name: string, fallback: T): Promise<T> {
    try {
      return JSON.parse(await readFile(this.fileOf(name, '.json'), 'utf8')) as T;
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return fallback;
      throw error;
    }
  }

  /** Replaces document `name` atomically (temp file, fsync, rename). */
  async write<T>(name: string, value: T): Promise<void> {
    await writeFileAtomic(this.fileOf(name, '.json'), JSON.stringify(value, null, 2), { mode: FILE_MODE });
  }

  /**
   * Read-modify-write of document `name`, serialized per name so concurrent
   * updates never lose each other's changes. Returns the new value.
   */
  update<T>(name: string, fallback: T, change: (current: T) => T | Promise<T>): Promise<T> {
    return this.exclusive(name, async () => {
      const next = await change(await this.read(name, fallback));
      await this.write(name, next);
      return next;
    });
  }

  /** Appends one line to log `name` (`{name}.jsonl`), rotating it to `{name}.jsonl.1` past LOG_ROTATE_BYTES. */
  appendLine(name: string, line: string): Promise<void> {
    return this.exclusive(`log:${name}`, async () => {
      const file = this.fileOf(name, '.jsonl');
      const size = await stat(file).then((info) => info.size, () => 0);
      if (size > LOG_ROTATE_BYTES) await rename(file, `${file}.1`);
      await appendFile(file, line.replace(/\n/g, ' ') + '\n', { mode: FILE_MODE });
    });
  }

  /** The lines of log `name`, older rotated lines first. */
  async readLines(name: string): Promise<string[]> {
    const file = this.fileOf(name, '.jsonl');
    const texts = await Promise.all([`${file}.1`, file].map((candidate) => readFile(candidate, 'utf8').catch(() => '')));
    return texts.join('').split('\n').filter((line) => line !== '');
  }

  private exclusive<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(run, run);
    this.chains.set(key, next.catch(() => undefined));
    return next;
  }

  private fileOf(name: string, extension: string): string {
    if (!isSafeSegment(name)) throw new AppError('internal_error', `Invalid state document name "${name}".`);
    return path.join(this.dir, name + extension);
  }
}
