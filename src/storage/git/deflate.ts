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

// Bodies larger than this are sampled before level 1 is spent on them: media
// (JPEG, PNG, PDF, video) is compressed already, and level 1 takes ~33 ms
// per MiB to find nothing, level 0 ~2 ms. A sample is cut at the start and
// in the middle, where a file's own headers are not.
const SAMPLE_ABOVE_BYTES = 1024 * 1024;
const SAMPLE_BYTES = 32 * 1024;
// A sample that level 1 does not take below this share of its size is not worth compressing.
const WORTH_COMPRESSING = 0.9;

/** `data` deflated at level 1, or at level 0 when it is large and samples of it do not compress (compressed media). */
export function deflateUnlessCompressed(data: Uint8Array): Buffer {
  return deflateFitted(data, data.length > SAMPLE_ABOVE_BYTES && !compresses(data) ? 0 : 1);
}

/** Whether level 1 shrinks samples of `data` (its start and its middle) to under 90 % of their size. */
export function compresses(data: Uint8Array): boolean {
  const middle = Math.floor((data.length - SAMPLE_BYTES) / 2);
  return [data.subarray(0, SAMPLE_BYTES), data.subarray(middle, middle + SAMPLE_BYTES)].some((sample) => deflateFitted(sample, 1).length < sample.length * WORTH_COMPRESSING);
}

/** `data` as one zlib stream at `level`, in one output buffer about the input's size. */
export function deflateFitted(data: Uint8Array, level: number): Buffer {
  const windowBits = Math.min(LARGEST_WINDOW_BITS, Math.max(SMALLEST_WINDOW_BITS, Math.ceil(Math.log2(data.length + LOOKAHEAD_BYTES))));
  return deflateSync(data, { level, windowBits, memLevel: windowBits - 7, chunkSize: data.length + CHUNK_SLACK_BYTES });
}
