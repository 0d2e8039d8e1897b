// Stopping a process and the processes it started, or lowering their
// priority, without making it a session leader: a detached child (setsid)
// gets its own scheduler autogroup on Linux, where `nice` then no longer
// yields the CPU to the server.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';

/** Sends `signal` to `pid` and every process under it (found through /proc; elsewhere to `pid` alone). */
export function signalTree(pid: number, signal: NodeJS.Signals): void {
  eachInTree(pid, (target) => process.kill(target, signal));
}

/** Sets the niceness of `pid` and every process under it; a process may always raise its children's, never lower it without privileges. */
export function reniceTree(pid: number, niceness: number): void {
  eachInTree(pid, (target) => setPriority(target, niceness));
}

/** The files `pid` and every process under it have open (through /proc; none elsewhere). */
export function filesOpenInTree(pid: number): string[] {
  const files: string[] = [];
  eachInTree(pid, (target) => files.push(...filesOpenBy(target)));
  return files;
}

/** The files any process has open, as far as /proc lets this process see (all of them as root). */
export function filesOpenByAnyProcess(): string[] {
  return processIds().flatMap(filesOpenBy);
}

/** Those of `files` that no process has open (as filesOpenByAnyProcess() sees), named by their folders' real paths, as /proc names them. */
export function filesNotOpen(files: string[]): string[] {
  if (files.length === 0) return [];
  const open = new Set(filesOpenByAnyProcess());
  return files.map((file) => path.join(realFolder(path.dirname(file)), path.basename(file))).filter((file) => !open.has(file));
}

/** `folder` with its symlinks resolved, as /proc names open files; as given (absolute) when it cannot be resolved. */
export function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

// The targets of /proc/<pid>/fd/*; none when the process is gone or not ours to see.
function filesOpenBy(pid: number): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const fd of fds) {
    try {
      files.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // Closed meanwhile.
    }
  }
  return files;
}

function processIds(): number[] {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
}

// Runs `act` on every process under `pid`, the deepest first, then on `pid`; one gone meanwhile is passed over.
function eachInTree(pid: number, act: (target: number) => void): void {
  for (const target of [...descendants(pid), pid]) {
    try {
      act(target);
    } catch {
      // Gone meanwhile.
    }
  }
}

// The processes under `pid`, the deepest first; none without /proc.
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const id of processIds()) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${id}/stat`, 'latin1');
    } catch {
      continue;
    }
    // The fields after the command name (in parentheses): state, then the parent's pid.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), id]);
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      visit(child);
      found.push(child);
    }
  };
  visit(pid);
  return found;
}
