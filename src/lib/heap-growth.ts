// How far V8 lets the old generation grow between full collections. Its
// default factor (up to 4× with a fast collector) left RSS after the read
// cases at 295–317 MiB with 10,000 posts, 40 % at 220–225 MiB
// (docs/performance.md, "RSS after the reads"). The start loads most of
// what the server keeps, so the limit is set once it has: under the default
// factor a 10,000-post load needs two full collections instead of four.
import { setFlagsFromString } from 'node:v8';

const FLAG = '--heap-growing-percent';
const PERCENT_AFTER_START = 40;

/** The V8 flag limitHeapGrowth() sets; undefined when the command line (`execArgv`) or `nodeOptions` set the growth themselves. */
export function heapGrowthFlag(execArgv: string[], nodeOptions = ''): string | undefined {
  // V8 takes its flags with hyphens or underscores.
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => arg.replaceAll('_', '-').startsWith(FLAG));
  return given ? undefined : `${FLAG}=${PERCENT_AFTER_START}`;
}

/** Limits V8's heap growth for a started server (see heapGrowthFlag()); `nodeOptions` is NODE_OPTIONS (Config). */
export function limitHeapGrowth(nodeOptions: string): void {
  const flag = heapGrowthFlag(process.execArgv, nodeOptions);
  if (flag !== undefined) setFlagsFromString(flag);
}
