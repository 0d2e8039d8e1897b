// Names for temp files that are renamed into place a moment later: each
// commit makes several, and drawing fresh random bytes for every one cost
// more than the rest of naming them. One random start per process, counted
// up from there, keeps the names unique within a process and apart from
// another process's (or a killed one's leftovers, which O_EXCL would refuse).
import { randomBytes } from 'node:crypto';

const HEX_DIGITS = 12;
const SPACE = 2 ** (HEX_DIGITS * 4);
let next = randomBytes(HEX_DIGITS / 2).readUIntBE(0, HEX_DIGITS / 2);

/** Twelve lowercase hex digits, different on every call in this process. */
export function tempSuffix(): string {
  next = (next + 1) % SPACE;
  return next.toString(16).padStart(HEX_DIGITS, '0');
}
