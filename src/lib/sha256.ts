// The SHA-256 of a stream of bytes, read chunk by chunk so that a large file
// never has to be held in memory (media uploads, media validators), or
// while it flows somewhere else, so it is read once (a replica's copies).
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

/** The SHA-256 of everything `bytes` yields (a stream, or chunks in memory), as 64 lowercase hex digits. Rejects with the stream's error. */
export async function sha256Of(bytes: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of bytes) hash.update(chunk);
  return hash.digest('hex');
}

/** A stream that passes its bytes on unchanged; `digest()` gives their SHA-256 (64 lowercase hex digits) once it has ended, and only once. */
export function sha256PassThrough(): { stream: Transform; digest: () => string } {
  const hash = createHash('sha256');
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}
