// The SHA-256 of a stream of bytes, read chunk by chunk so that a large file
// never has to be held in memory (media uploads, media validators).
import { createHash } from 'node:crypto';

/** The SHA-256 of everything `bytes` yields, as 64 lowercase hex digits. Rejects with the stream's error. */
export async function sha256Of(bytes: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of bytes) hash.update(chunk);
  return hash.digest('hex');
}
