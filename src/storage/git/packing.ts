// Bounded repository growth: every commit writes new loose objects (a new
// tree per folder on the changed path), so git's own packing runs in the
// background through the git CLI once enough of them piled up. `git repack
// --geometric` rolls loose objects and small packs into larger ones at a cost
// that grows with the new objects, not the history, and keeps git's rules:
// new packs are in place before loose copies and old packs go, so no object
// is ever missing for a reader. Writes never wait for it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { errnoCode, isNotFound } from '../../lib/errno.ts';
import type { Logger } from '../../lib/logger.ts';
import { reniceTree, signalTree } from '../../lib/process-tree.ts';
import { packTempsOpenIn, removePackTemps } from './pack-temps.ts';

/** What the packer needs to know about what this process wrote: loose objects, and packs (commit-packs.ts roll-ups) with their bytes. */
export interface WrittenObjects {
  objects: number;
  bytes: number;
  packs: number;
}

/** How much a process writes before a background run; whichever comes first. */
export interface PackingSchedule {
  /** Loose objects written (default 6000); each takes a file system block at least. */
  objectsPerRun?: number;
  /** Bytes written, loose or packed (default 64 MiB). */
  bytesPerRun?: number;
  /** Packs written (default 32): each is one more file every object lookup may search. */
  packsPerRun?: number;
  /** Commits whose packs are rolled up into one (commit-packs.ts; default 64). */
  commitsPerRollUp?: number;
  /** Bytes of commit packs a run may hold back before git enumerated what it packs (default 32 MiB); see Packer.noteHeldBack(). */
  heldBackPerRun?: number;
}

/** The git executable and the environment it runs in (config's CMS_GIT_PATH and cleaned environment); default `git` with ours. */
export interface GitCommand {
  bin: string;
  env?: Readonly<Record<string, string>>;
}

const PATH_GIT: GitCommand = { bin: 'git' };

/** Options of Packer.start(). */
export interface PackerOptions extends PackingSchedule {
  git?: GitCommand;
  logger?: Logger;
  /** Called after each background run, so readers drop packs it deleted. */
  onPacked?: () => void;
  /** Resolves once no pack is being deleted: a run waits for it before git lists the packs. */
  packsSettled?: () => Promise<void>;
  /** Resolves once the start is over: loose objects or packs found at start are packed then (default: STARTUP_DELAY_MS after start()). */
  startupOver?: Promise<void>;
}

const run = promisify(execFile);
const OBJECTS_PER_RUN = 6000;
const BYTES_PER_RUN = 64 * 1024 * 1024;
const PACKS_PER_RUN = 32;
// Background runs bound git's memory: its cache of inflated delta bases (96
// MiB by default) and its mapped pack windows (1 GiB each on 64-bit). During
// an API seed of 10,000 posts a run's pack-objects held 100–215 MiB resident
// at the defaults. Repacking the 526 packs such a seed leaves, it peaked at
// 51 MiB with an 8 MiB cache and 16 MiB of windows, and at 33 MiB with these,
// for the same CPU time (8.3 s against 8.6 s on a busy machine).
const BOUNDED_MEMORY = ['-c', 'core.deltaBaseCacheLimit=2m', '-c', 'core.packedGitLimit=4m', '-c', 'core.packedGitWindowSize=1m'];
// git gc writes gc.pid while it runs and removes it after; an older one is stale (git's own rule).
const GC_PID_FRESH_MS = 12 * 60 * 60 * 1000;
// `git repack --geometric` came with git 2.32.
const OLDEST_GIT: [number, number] = [2, 32];
// Where they exist, git runs under `nice` and `ionice -c 3` (idle I/O) so
// requests win both the CPU and the disk; its own subprocesses inherit both.
const NICENESS = 10;
const LOW_PRIORITY = [['nice', '-n', String(NICENESS)], ['ionice', '-c', '3']];
// Loose objects or packs found at start wait this long, so packing them does
// not compete with the start itself (reading every entry) for the CPU.
const STARTUP_DELAY_MS = 15_000;
// git's own gc.autoPackLimit: more packs than this found at start call for a
// run. Commit packs that a stopped or killed server never rolled up (up to a
// roll-up's worth per start) pile up here, and no write of the next process
// counts them.
const PACKS_AT_START = 50;
// git reports through trace2 (JSON lines on this file descriptor) when its
// pack-objects has enumerated the objects to pack: by then it has opened
// every pack `git repack` named to it, and it reads no pack that appears
// later. GIT_TRACE2_EVENT_NESTING keeps the region in the report whatever
// the environment says (git's default is 2; the region is at 1). `env` sets
// both over the environment git is given or inherits; git reads trace2's
// settings from no `-c` option.
const TRACE_FD = 3;
const TRACE_PREFIX = ['env', `GIT_TRACE2_EVENT=${TRACE_FD}`, 'GIT_TRACE2_EVENT_NESTING=2'];
const ENUMERATED = { event: 'region_leave', category: 'pack-objects', label: 'enumerate-objects' };
// Until git has enumerated what it packs, every commit pack waits for the run.
// A niced git on a core the server keeps busy enumerated for ~10 s of a 13 s
// run while the server wrote ~80 MB of commit packs (a 6,000-entry folder's
// tree is stored whole in each): past this much, the run is stopped, and
// started again once the writes pause (or the next run is due).
const HELD_BACK_PER_RUN = 32 * 1024 * 1024;
const RETRY_AFTER_QUIET_MS = 2000;
// A run that fell behind the writes gets its fair share of the CPU only
// while they go on: once none came for this long, it yields to the reads
// (niced like every other run), which it would otherwise halve on a busy core.
const YIELD_AFTER_QUIET_MS = 1000;

/** Schedules background packing of one repository; a no-op without a usable git CLI. */
export class Packer {
  private running: Promise<void> | undefined;
  private child: ChildProcess | undefined;
  private startupRun: NodeJS.Timeout | undefined;
  private closed = false;
  // What had been written when the current (or last) run started, and when the last run that finished started.
  private startedAt: WrittenObjects = { objects: 0, bytes: 0, packs: 0 };
  private packedAt: WrittenObjects = { objects: 0, bytes: 0, packs: 0 };
  private latest: WrittenObjects = { objects: 0, bytes: 0, packs: 0 };
  // See mayReadPacksBefore.
  private readsBefore: number | undefined;
  // The run in progress was stopped for holding back too much (noteHeldBack()).
  private stopped = false;
  // Starts a stopped run again once the writes paused.
  private retry: NodeJS.Timeout | undefined;
  // Lowers a run at full priority to NICENESS once the writes paused.
  private yieldCpu: NodeJS.Timeout | undefined;
  // The temp files of a stopped run, removed once it has exited (pack-temps.ts).
  private stoppedTemps: string[] = [];

  // The git CLI's check, made before the first run (see usableGit()).
  private git: Promise<{ lowPriority: string[] } | undefined> | undefined;

  private constructor(
    private readonly gitdir: string,
    private readonly options: PackerOptions,
  ) {}

  /**
   * Returns a packer of the repository. The git CLI is checked before the
   * first run, not here: the checks fork processes from a server that is
   * loading its content, and nothing needs git before a run. When git is
   * missing or older than 2.32, that run logs one clear error and no run
   * follows: the server works as before, and the repository grows by every
   * commit until `cms gc` or `git gc` packs it.
   */
  static async start(gitdir: string, options: PackerOptions = {}): Promise<Packer> {
    const packer = new Packer(gitdir, options);
    // Loose objects and packs from before (an older server, commits made with git) are packed once the start is over.
    if ((await estimateLooseObjects(gitdir)) >= packer.objectsPerRun || (await countPacks(gitdir)) > PACKS_AT_START) {
      void (options.startupOver ?? packer.startupDelay()).then(() => {
        if (packer.running === undefined && !packer.closed) packer.run();
      });
    }
    return packer;
  }

  // Resolves STARTUP_DELAY_MS from now, unless close() comes first.
  private startupDelay(): Promise<void> {
    return new Promise((resolve) => {
      this.startupRun = setTimeout(resolve, STARTUP_DELAY_MS);
      this.startupRun.unref();
    });
  }

  /** Tells the packer how much this process has written so far; starts a run in the background when enough piled up. */
  noteWritten(written: WrittenObjects): void {
    this.latest = { ...written };
    this.retry?.refresh();
    this.yieldCpu?.refresh();
    if (this.running !== undefined || this.closed || !this.isDue(this.startedAt, 1)) return;
    this.startedAt = { ...written };
    this.run();
  }

  /**
   * The run in progress may read the packs written before this
   * performance.now() time, and fails ("could not find pack") when one of
   * them is deleted before it exits: every pack (Infinity) from the run's
   * start until git reports that its pack-objects enumerated the objects to
   * pack, then those written before that report arrived. Undefined between
   * runs.
   */
  get mayReadPacksBefore(): number | undefined {
    return this.readsBefore;
  }

  /**
   * Tells the packer how many bytes of commit packs wait for the run in
   * progress because it may read them (mayReadPacksBefore is Infinity). Past
   * `heldBackPerRun`, the run is stopped before git enumerated what it packs,
   * when it has written nothing yet; it starts again once no write came for
   * two seconds, or when the next run is due.
   */
  noteHeldBack(bytes: number): void {
    if (this.child === undefined || this.stopped || this.readsBefore !== Number.POSITIVE_INFINITY || bytes <= (this.options.heldBackPerRun ?? HELD_BACK_PER_RUN)) return;
    this.stopped = true;
    this.options.logger?.info('a background git repack was stopped: it held back too many commit packs before it listed what it packs; it starts again once the writes pause', { heldBackBytes: bytes });
    this.stoppedTemps.push(...stopGit(this.child, this.gitdir));
  }

  /** Stops a run in progress and the processes it started, removes the temp files they leave, and waits for it to end. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.startupRun);
    clearTimeout(this.retry);
    clearTimeout(this.yieldCpu);
    if (this.child !== undefined) this.stoppedTemps.push(...stopGit(this.child, this.gitdir));
    await this.running;
  }

  private get objectsPerRun(): number {
    return this.options.objectsPerRun ?? OBJECTS_PER_RUN;
  }

  // Whether `runs` runs' worth was written since `since`.
  private isDue(since: WrittenObjects, runs: number): boolean {
    const objects = this.latest.objects - since.objects;
    const bytes = this.latest.bytes - since.bytes;
    const packs = this.latest.packs - since.packs;
    return objects >= runs * this.objectsPerRun || bytes >= runs * (this.options.bytesPerRun ?? BYTES_PER_RUN) || packs >= runs * (this.options.packsPerRun ?? PACKS_PER_RUN);
  }

  private run(): void {
    const started = { ...this.startedAt };
    this.readsBefore = Number.POSITIVE_INFINITY;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.running = this.pack().then((ok) => {
      clearTimeout(this.yieldCpu);
      this.yieldCpu = undefined;
      this.running = undefined;
      this.readsBefore = undefined;
      this.child = undefined;
      this.options.onPacked?.();
      if (this.stopped && !this.closed) this.retryLater();
      this.stopped = false;
      if (!ok || this.closed) return;
      this.packedAt = started;
      // Objects written while git ran may already call for the next run.
      this.noteWritten(this.latest);
    });
  }

  // Starts the run again once no write came for RETRY_AFTER_QUIET_MS (noteWritten() pushes it back).
  private retryLater(): void {
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.running !== undefined || this.closed) return;
      this.startedAt = { ...this.latest };
      this.run();
    }, RETRY_AFTER_QUIET_MS);
    this.retry.unref();
  }

  // Runs git once; true when it succeeded.
  private async pack(): Promise<boolean> {
    this.git ??= usableGit(this.options);
    const usable = await this.git;
    if (usable === undefined || this.closed || isGcRunning(this.gitdir)) return false;
    // A pack deleted after git listed it and before it opened it fails the run.
    await this.options.packsSettled?.();
    if (this.closed) return false;
    // -n: no info/packs file, which only dumb HTTP serving reads.
    const args = ['repack', '-d', '-q', '-n', '--geometric=2'];
    // git runs at low priority unless it fell behind the writes by a run or
    // more: then it gets its fair share, so the repository stays bounded. Commits
    // that never block on the disk leave a niced git no time on a busy core.
    const prefix = this.isDue(this.packedAt, 2) ? [] : usable.lowPriority;
    // --git-dir names the repository, so a GIT_DIR inherited from a hook never
    // redirects git. A delta window of one finds what matters (each version of
    // a folder's tree against the one before) and fast compression keeps
    // packing cheap enough to keep up with the writes; `cms gc` packs tighter.
    const git = this.options.git ?? PATH_GIT;
    const command = [...TRACE_PREFIX, ...prefix, git.bin, '--git-dir', this.gitdir, '-c', 'pack.threads=1', '-c', 'pack.window=1', '-c', 'pack.compression=1', ...BOUNDED_MEMORY, ...args];
    const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], ...(git.env ? { env: git.env } : {}) });
    this.child = child;
    if (prefix.length === 0 && usable.lowPriority.length > 0) this.yieldWhenQuiet(child);
    const trace = child.stdio[TRACE_FD] as Readable | null;
    if (trace !== null) whenEnumerated(trace, () => {
      if (this.child === child) this.readsBefore = performance.now();
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    const code = await new Promise<number | null>((resolve) => {
      child.once('error', () => resolve(-1));
      child.once('close', resolve);
    });
    removePackTemps(this.stoppedTemps.splice(0));
    if (code !== 0 && !this.closed && !this.stopped) this.options.logger?.error('packing the content repository failed; it is retried after the next commits', { exitCode: code, stderr: stderr.trim() });
    return code === 0;
  }

  // A run started at full priority (behind the writes) is niced once no write came for YIELD_AFTER_QUIET_MS (noteWritten() pushes it back).
  private yieldWhenQuiet(child: ChildProcess): void {
    this.yieldCpu = setTimeout(() => {
      this.yieldCpu = undefined;
      if (this.child === child && child.pid !== undefined) reniceTree(child.pid, NICENESS);
    }, YIELD_AFTER_QUIET_MS);
    this.yieldCpu.unref();
  }
}

// SIGTERM to git repack and the processes it started (its pack-objects).
// git repack removes its temp files, pack-objects leaves its `tmp_pack_*`:
// returns the temp files they had open (pack-temps.ts).
function stopGit(child: ChildProcess, gitdir: string): string[] {
  if (child.pid === undefined) return [];
  const temps = packTempsOpenIn(child.pid, path.join(gitdir, 'objects', 'pack'));
  signalTree(child.pid, 'SIGTERM');
  return temps;
}

// Calls `enumerated` once git's trace2 report (JSON lines) says its
// pack-objects is past the enumeration of objects.
function whenEnumerated(trace: Readable, enumerated: () => void): void {
  const lines = createInterface({ input: trace, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    if (!line.includes(ENUMERATED.label)) return;
    const event = parseJson(line);
    if (event?.event === ENUMERATED.event && event.category === ENUMERATED.category && event.label === ENUMERATED.label) {
      lines.close();
      trace.resume();
      enumerated();
    }
  });
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Sizes of `.git` before and after packRepository(). */
export interface PackResult {
  bytesBefore: number;
  bytesAfter: number;
}

/**
 * Packs the repository by hand (`cms gc`): `git gc`, which repacks every
 * object into one pack, packs refs and prunes unreachable objects older than
 * two weeks, under git's own gc lock; safe while the server runs. Throws
 * with git's message when git is missing or fails.
 */
export async function packRepository(gitdir: string, git: GitCommand = PATH_GIT): Promise<PackResult> {
  if (!existsSync(path.join(gitdir, 'HEAD'))) throw new Error('there is no git repository there.');
  const bytesBefore = await folderBytes(gitdir);
  await run(git.bin, ['--git-dir', gitdir, 'gc', '--quiet'], { maxBuffer: 1024 * 1024, ...(git.env ? { env: git.env } : {}) });
  return { bytesBefore, bytesAfter: await folderBytes(gitdir) };
}

/** Disk usage of a folder in bytes (allocated blocks, like `du`); what a concurrent repack deletes meanwhile counts as gone. */
export async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) total += await folderBytes(file);
    else total += await stat(file).then((info) => info.blocks * 512, () => 0);
  }
  return total;
}

// The git CLI when it is 2.32 or newer, with the low-priority prefixes this
// system has; undefined, after one error in the log, otherwise.
async function usableGit(options: PackerOptions): Promise<{ lowPriority: string[] } | undefined> {
  const version = await gitVersion(options.git ?? PATH_GIT);
  if (version === undefined || version[0] < OLDEST_GIT[0] || (version[0] === OLDEST_GIT[0] && version[1] < OLDEST_GIT[1])) {
    const found = version === undefined ? 'the git CLI was not found' : `git ${version.join('.')} is older than ${OLDEST_GIT.join('.')}`;
    options.logger?.error(`${found}, so the content repository is not packed in the background and grows by every commit; install a recent git and restart`);
    return undefined;
  }
  return { lowPriority: (await Promise.all(LOW_PRIORITY.map(async (command) => ((await succeeds([...command, 'true'])) ? command : [])))).flat() };
}

async function succeeds(command: string[]): Promise<boolean> {
  try {
    await run(command[0], command.slice(1));
    return true;
  } catch {
    return false;
  }
}

// [major, minor] of the git CLI, or undefined when there is none.
async function gitVersion(git: GitCommand): Promise<[number, number] | undefined> {
  try {
    const { stdout } = await run(git.bin, ['--version'], git.env ? { env: git.env } : {});
    const match = /(\d+)\.(\d+)/.exec(stdout);
    return match === null ? undefined : [Number(match[1]), Number(match[2])];
  } catch {
    return undefined;
  }
}

/**
 * Whether `git gc` (or `cms gc`) is running on the repository, by git's own
 * rule: gc.pid ("<pid> <host>") younger than 12 hours, unless it names a
 * process of this host that is gone.
 */
export function isGcRunning(gitdir: string): boolean {
  let content: string;
  try {
    const file = path.join(gitdir, 'gc.pid');
    if (Date.now() - statSync(file).mtimeMs >= GC_PID_FRESH_MS) return false;
    content = readFileSync(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
  const [pid, host] = content.trim().split(' ');
  if (host !== hostname() || !/^\d+$/.test(pid)) return true;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}

// Packs git would merge: those without a .keep file, as git gc --auto counts them.
async function countPacks(gitdir: string): Promise<number> {
  const names = new Set(await readdir(path.join(gitdir, 'objects', 'pack')).catch(() => []));
  return [...names].filter((name) => name.endsWith('.idx') && !names.has(`${name.slice(0, -4)}.keep`)).length;
}

// git's own estimate: the objects in one of the 256 folders, times 256.
async function estimateLooseObjects(gitdir: string): Promise<number> {
  const names = await readdir(path.join(gitdir, 'objects', '17')).catch(() => []);
  return names.filter((name) => /^[0-9a-f]{38}$/.test(name)).length * 256;
}

