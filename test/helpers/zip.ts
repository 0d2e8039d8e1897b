// A ZIP writer for tests that need archives no well-behaved library would
// make: names with `../` or a leading `/`, symlink entries, sizes that lie,
// thousands of entries. Byte layout per PKWARE APPNOTE (no zip64). And the
// manifest and the entries of a backup the server wrote, read with yauzl.
import { crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';

/** One entry of a test archive. */
export interface ZipEntrySpec {
  name: string;
  data: Buffer;
  /** Deflate the data (method 8) instead of storing it. */
  deflate?: boolean;
  /** Unix mode written into the external attributes (e.g. 0o120777 for a symlink). */
  mode?: number;
  /** Overrides the uncompressed size written into the headers. */
  declaredSize?: number;
}

/** Builds a ZIP archive from the entries, byte for byte as specified. */
export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = entry.deflate ? deflateRawSync(entry.data) : entry.data;
    const shared: SharedFields = {
      method: entry.deflate ? 8 : 0,
      crc: crc32(entry.data),
      compressedSize: body.length,
      size: entry.declaredSize ?? entry.data.length,
      nameLength: name.length,
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeSharedFields(local, 4, shared);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    writeSharedFields(central, 6, shared);
    central.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

interface SharedFields {
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  nameLength: number;
}

// The local header and the central directory record carry the same run of
// fields (version needed … name length); only where it starts differs.
function writeSharedFields(header: Buffer, at: number, fields: SharedFields): void {
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(0x0800, at + 2);
  header.writeUInt16LE(fields.method, at + 4);
  header.writeUInt32LE(0x21, at + 6);
  header.writeUInt32LE(fields.crc, at + 10);
  header.writeUInt32LE(fields.compressedSize, at + 14);
  header.writeUInt32LE(fields.size, at + 18);
  header.writeUInt16LE(fields.nameLength, at + 22);
}

/** Every entry of an archive on disk with its uncompressed bytes, in order: to build an altered copy with buildZip(). */
export async function entriesOf(archive: string): Promise<ZipEntrySpec[]> {
  const zip = await yauzl.openPromise(archive, { autoClose: false });
  const entries: ZipEntrySpec[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
    }
  } finally {
    zip.close();
  }
  return entries;
}

/** The parsed `manifest.json` of a backup archive on disk. */
export async function manifestOf(archive: string): Promise<Record<string, unknown>> {
  const zip = await yauzl.openPromise(archive, { autoClose: false });
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== 'manifest.json') continue;
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      return JSON.parse(Buffer.concat(chunks).toString('utf8'));
    }
  } finally {
    zip.close();
  }
  throw new Error('no manifest');
}
