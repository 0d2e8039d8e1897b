// Git's delta format (pack-reader.ts applies it): the base's size, the
// result's size, then instructions that copy a range of the base or insert
// literal bytes. Consecutive versions of one folder's tree differ in a few
// entries, so the bytes they share at both ends make a delta of a few dozen
// bytes, found with two binary searches instead of git's block hashing.

// Copy instructions carry at most three size bytes.
const MAX_COPY = 0xffffff;
// Insert instructions carry at most this many literal bytes.
const MAX_INSERT = 0x7f;
// Below this many shared bytes a delta saves nothing worth a chain.
const MIN_SHARED = 64;

/** How many bytes `a` and `b` share at the start, and after those at the end. */
export interface SharedEnds {
  prefix: number;
  suffix: number;
}

export function sharedEnds(a: Uint8Array, b: Uint8Array): SharedEnds {
  const prefix = commonPrefix(a, b);
  return { prefix, suffix: commonSuffix(a, b, Math.min(a.length, b.length) - prefix) };
}

/**
 * A delta that rebuilds `target` from `base` by copying their common prefix
 * and suffix; undefined when they share too little for a delta to be smaller
 * than half of `target`.
 */
export function encodeDelta(base: Uint8Array, target: Uint8Array, { prefix, suffix }: SharedEnds = sharedEnds(base, target)): Buffer | undefined {
  const middle = target.length - prefix - suffix;
  if (prefix + suffix < MIN_SHARED || middle * 2 > target.length) return undefined;
  const out: number[] = [...varint(base.length), ...varint(target.length)];
  copy(out, 0, prefix);
  for (let at = prefix; at < prefix + middle; at += MAX_INSERT) {
    const end = Math.min(at + MAX_INSERT, prefix + middle);
    out.push(end - at, ...target.subarray(at, end));
  }
  copy(out, base.length - suffix, suffix);
  return Buffer.from(out);
}

function copy(out: number[], from: number, length: number): void {
  for (let done = 0; done < length; done += MAX_COPY) {
    const offset = from + done;
    const size = Math.min(MAX_COPY, length - done);
    const bytes: number[] = [];
    let op = 0x80;
    for (let i = 0; i < 4; i += 1) {
      const byte = Math.floor(offset / 2 ** (8 * i)) & 0xff;
      if (byte !== 0) {
        op |= 1 << i;
        bytes.push(byte);
      }
    }
    for (let i = 0; i < 3; i += 1) {
      const byte = (size >> (8 * i)) & 0xff;
      if (byte !== 0) {
        op |= 16 << i;
        bytes.push(byte);
      }
    }
    out.push(op, ...bytes);
  }
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

// Binary searches with memcmp over the part not known to match yet: about
// as many bytes compared as the shorter input, never a byte loop in JavaScript.
function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  let low = 0;
  let high = Math.min(a.length, b.length);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (Buffer.compare(a.subarray(low, mid), b.subarray(low, mid)) === 0) low = mid;
    else high = mid - 1;
  }
  return low;
}

function commonSuffix(a: Uint8Array, b: Uint8Array, limit: number): number {
  let low = 0;
  let high = limit;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (Buffer.compare(a.subarray(a.length - mid, a.length - low), b.subarray(b.length - mid, b.length - low)) === 0) low = mid;
    else high = mid - 1;
  }
  return low;
}
