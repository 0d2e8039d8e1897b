// Stopping a process and the processes it started, or lowering their
// priority, without making it a session leader: a detached child (setsid)
// gets its own scheduler autogroup on Linux, where `nice` then no longer
// yields the CPU to the server.
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Sends `signal` to `pid` and every process under it (found through /proc; elsewhere to `pid` alone). */
export function signalTree(pid: number, signal: NodeJS.Signals): void {
  eachInTree(pid, (target) => process.kill(target, signal));
}

/** Sets the niceness of `pid` and every process under it; a process may always raise its children's, never lower it without privileges. */
export function reniceTree(pid: number, niceness: number): void {
  eachInTree(pid, (target) => setPriority(target, niceness));
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
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue;
    }
    // The fields after the command name (in parentheses): state, then the parent's pid.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
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
