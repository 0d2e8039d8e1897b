// zlib's deflate, sized to what it compresses. zlib allocates its window and
// hash table by windowBits and memLevel, not by the input: the defaults (15
// and 8) take ~270 KB per stream, and in the server that fresh memory cost
// ~100 µs for a 1.5 KB blob and ~30 µs for a small tree, several per commit.
// A window as large as the input still reaches every earlier byte.
import { deflateSync } from 'node:zlib';

// zlib keeps this much lookahead beyond the window (its MIN_LOOKAHEAD).
const LOOKAHEAD_BYTES = 262;
const SMALLEST_WINDOW_BITS = 9;
const LARGEST_WINDOW_BITS = 15;
// Room for zlib's framing beyond the input, so one output chunk holds it.
const CHUNK_SLACK_BYTES = 1024;

/** `data` as one zlib stream at `level`, in one output buffer about the input's size. */
export function deflateFitted(data: Uint8Array, level: number): Buffer {
  const windowBits = Math.min(LARGEST_WINDOW_BITS, Math.max(SMALLEST_WINDOW_BITS, Math.ceil(Math.log2(data.length + LOOKAHEAD_BYTES))));
  return deflateSync(data, { level, windowBits, memLevel: windowBits - 7, chunkSize: data.length + CHUNK_SLACK_BYTES });
}
