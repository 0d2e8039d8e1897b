// What the entry snapshot keeps for the next start holds no file text: a
// parse's strings are slices of the text it came from, and V8 keeps the
// whole text alive for a slice.
import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EntrySnapshot } from '../../src/domain/content/entry-snapshot.ts';
import type { ContentType } from '../../src/domain/model/content-type.ts';
import type { StoredEntry } from '../../src/domain/model/entry.ts';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const TYPE = { name: 'posts', fields: {} } as unknown as ContentType;
const TEXTS = 40;
const TEXT_BYTES = 1024 * 1024;

function entry(slug: string): StoredEntry {
  const at = '2026-01-01T00:00:00.000Z';
  return { id: slug, slug, type: 'posts', status: 'published', title: slug, created_at: at, updated_at: at, published_at: at, data: {}, translations: {} } as StoredEntry;
}

// The files of entry `i`: its root file and a blob id of its own.
function filesOf(i: number): { path: string; oid: string }[] {
  return [{ path: `default/entries/posts/p${i}.md`, oid: i.toString(16).padStart(40, '0') }];
}

function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

describe('entry snapshot memory', () => {
  it('keeps a parsed date without the file text it was sliced from', () => {
    const snapshot = EntrySnapshot.empty();
    const before = heapUsed();
    const expected: string[] = [];
    for (let i = 0; i < TEXTS; i += 1) {
      const date = `2025-02-${String((i % 28) + 1).padStart(2, '0')}T10:00:00.000Z`;
      // A file of a megabyte whose front matter holds the date, as a parse slices it.
      const text = `${'x'.repeat(TEXT_BYTES)}\nupdated_at: ${date}\n`;
      const parsedUpdatedAt = text.slice(text.lastIndexOf(': ') + 2, -1);
      snapshot.keep(TYPE, filesOf(i), entry(`p${i}`), parsedUpdatedAt);
      expected.push(date);
    }
    const grown = heapUsed() - before;
    expect(grown).to.be.below((TEXTS * TEXT_BYTES) / 4);
    for (let i = 0; i < TEXTS; i += 1) {
      expect(snapshot.recordOf(TYPE, filesOf(i))?.entry.updated_at).to.equal(expected[i]);
    }
  });
});
