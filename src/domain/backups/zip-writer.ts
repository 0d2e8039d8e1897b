// Writing ZIP archives with archiver, streamed: each entry's source is opened
// only when the archive is ready for it, so one file is open at a time and
// the archive is never held in memory.
import { pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';

/** One entry to write; `open` is called when the archive reaches it and may skip it by returning undefined. */
export interface ZipSource {
  name: string;
  open: () => Promise<Readable | Buffer | string | undefined>;
}

/** Writes `sources` (in order), dated `date`, as a ZIP archive into `output`; resolves when the output is finished. */
export async function writeZip(output: Writable, sources: AsyncIterable<ZipSource>, date: Date): Promise<void> {
  // Imported on first use: archiver costs ~0.15 s of CPU to load, which every start would pay before its first answer.
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const written = pipeline(archive, output);
  try {
    for await (const source of sources) {
      const content = await source.open();
      if (content === undefined) continue;
      await new Promise<void>((resolve, reject) => {
        const onEntry = (): void => {
          archive.off('error', onError);
          resolve();
        };
        const onError = (error: Error): void => {
          archive.off('entry', onEntry);
          reject(error);
        };
        archive.once('entry', onEntry);
        archive.once('error', onError);
        archive.append(content, { name: source.name, date, mode: 0o644 });
      });
    }
    await archive.finalize();
  } catch (error) {
    archive.abort();
    output.destroy(error instanceof Error ? error : undefined);
    await written.catch(() => undefined);
    throw error;
  }
  await written;
}
