// A body as a zlib stream of uncompressed ("stored") blocks, written from
// slices of the body itself. zlib's level 0 copies the body and checksums
// all of it, ~0.5 ms per commit for the 450 KB tree of a 10,000-entry
// folder; here each block's Adler-32 is kept, so the folder's next tree,
// which shares all but a stretch in the middle with this one, is framed by
// checksumming only the blocks that stretch touches.

const BLOCK_BYTES = 8 * 1024;
const ADLER_MOD = 65521;
// zlib's NMAX: this many bytes can be summed before the sums need the modulo.
const ADLER_RUN = 5552;
// CMF (deflate, 32 KiB window) and FLG (fastest, check bits): the header zlib writes at level 0.
const ZLIB_HEADER = [0x78, 0x01];

/** How a body is cut into stored blocks: each block's length and Adler-32. */
export interface StoredBlocks {
  length: number;
  lengths: number[];
  sums: number[];
}

/** Cuts `body` into blocks and checksums each. */
export function blocksOf(body: Uint8Array): StoredBlocks {
  const blocks: StoredBlocks = { length: body.length, lengths: [], sums: [] };
  addBlocks(blocks, body);
  return blocks;
}

/**
 * The blocks of `next`, which has the first `prefix` and the last `suffix`
 * bytes of the body that `previous` cuts: blocks wholly inside either are
 * kept, the stretch between them is cut anew.
 */
export function reframe(previous: StoredBlocks, next: Uint8Array, prefix: number, suffix: number): StoredBlocks {
  const blocks: StoredBlocks = { length: next.length, lengths: [], sums: [] };
  let head = 0;
  let start = 0;
  while (head < previous.lengths.length && start + previous.lengths[head] <= prefix) start += previous.lengths[head++];
  let tail = previous.lengths.length;
  let tailStart = previous.length;
  while (tail > head && tailStart - previous.lengths[tail - 1] >= previous.length - suffix) tailStart -= previous.lengths[--tail];
  blocks.lengths.push(...previous.lengths.slice(0, head));
  blocks.sums.push(...previous.sums.slice(0, head));
  addBlocks(blocks, next.subarray(start, tailStart + next.length - previous.length));
  blocks.lengths.push(...previous.lengths.slice(tail));
  blocks.sums.push(...previous.sums.slice(tail));
  // Edits can leave small blocks behind; past twice the count a fresh cut would have, cut afresh.
  return blocks.lengths.length > 2 * Math.ceil(next.length / BLOCK_BYTES) + 8 ? blocksOf(next) : blocks;
}

/** The zlib stream of `body` cut as `blocks` say, as parts: header, each block's header and slice of `body`, the Adler-32 of the whole. */
export function storedStream(body: Uint8Array, blocks: StoredBlocks): Buffer[] {
  const count = Math.max(1, blocks.lengths.length);
  const headers = Buffer.alloc(ZLIB_HEADER.length + count * 5 + 4);
  headers.set(ZLIB_HEADER);
  const parts: Buffer[] = [headers.subarray(0, ZLIB_HEADER.length)];
  let at = 0;
  let sum = 1;
  for (let i = 0; i < count; i += 1) {
    const length = blocks.lengths[i] ?? 0;
    const header = headers.subarray(ZLIB_HEADER.length + i * 5, ZLIB_HEADER.length + i * 5 + 5);
    header[0] = i === count - 1 ? 1 : 0;
    header.writeUInt16LE(length, 1);
    header.writeUInt16LE(~length & 0xffff, 3);
    parts.push(header, Buffer.from(body.buffer, body.byteOffset + at, length));
    sum = combineAdler(sum, blocks.sums[i] ?? 1, length);
    at += length;
  }
  const trailer = headers.subarray(headers.length - 4);
  trailer.writeUInt32BE(sum);
  parts.push(trailer);
  return parts;
}

function addBlocks(blocks: StoredBlocks, stretch: Uint8Array): void {
  for (let at = 0; at < stretch.length; at += BLOCK_BYTES) {
    const block = stretch.subarray(at, Math.min(at + BLOCK_BYTES, stretch.length));
    blocks.lengths.push(block.length);
    blocks.sums.push(adler32(block));
  }
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + ADLER_RUN, data.length);
    for (; i < end; i += 1) {
      a += data[i];
      b += a;
    }
    a %= ADLER_MOD;
    b %= ADLER_MOD;
  }
  return b * 0x10000 + a;
}

// The Adler-32 of two stretches one after the other, from each one's sum and
// the second one's length: the second one's running sums all grow by the
// first one's byte total.
function combineAdler(first: number, second: number, secondLength: number): number {
  const a1 = first % 0x10000;
  const a2 = second % 0x10000;
  const b1 = Math.floor(first / 0x10000);
  const b2 = Math.floor(second / 0x10000);
  const a = (a1 + a2 + ADLER_MOD - 1) % ADLER_MOD;
  const b = (b1 + b2 + (secondLength % ADLER_MOD) * ((a1 + ADLER_MOD - 1) % ADLER_MOD)) % ADLER_MOD;
  return b * 0x10000 + a;
}
