// Waiting for a readable stream's first chunk without taking it, so a caller
// can tell "failed before any byte" (still answerable with an error) from
// "failed once it started" (can only be cut off).
import type { Readable } from 'node:stream';

/**
 * Resolves once `stream` has a chunk buffered, has ended, or closed without
 * an error; rejects with its error if it fails first. Nothing is consumed,
 * so the stream can still be piped whole afterwards.
 */
export function untilFirstChunk(stream: Readable): Promise<void> | undefined {
  if (stream.errored) return Promise.reject(stream.errored);
  if (stream.readableLength > 0 || stream.readableEnded || stream.destroyed) return undefined;
  return new Promise((resolve, reject) => {
    // 'readable' also fires at the end of an empty stream; 'close' alone when
    // it was destroyed without an error (e.g. the client left first).
    const onReadable = () => {
      stream.off('readable', onReadable);
      resolve();
    };
    stream.on('readable', onReadable);
    // Left attached on purpose: an error between here and the consumer's
    // pipe must not be an unhandled 'error' event; once settled it does nothing.
    stream.once('error', reject);
    stream.once('close', () => resolve());
  });
}
