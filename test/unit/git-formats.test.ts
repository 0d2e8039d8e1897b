import { expect } from 'chai';
import fc from 'fast-check';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, writevSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { composeMessage, splitTrailers } from '../../src/storage/git/commit-object.ts';
import { encodeIndexEntry, GitIndex, IndexFormatError } from '../../src/storage/git/index-file.ts';
import { compresses, deflateFitted, deflateUnlessCompressed } from '../../src/storage/git/deflate.ts';
import { ObjectReader } from '../../src/storage/git/object-reader.ts';
import { prepareObject } from '../../src/storage/git/objects.ts';
import { encodeDelta, sharedEnds } from '../../src/storage/git/delta-encoding.ts';
import { entryBody, removeStalePackTemps, writePack } from '../../src/storage/git/pack-writer.ts';
import { decodeEwah, encodeEwah, SplitIndex } from '../../src/storage/git/split-index.ts';
import { blocksOf, reframe, storedStream } from '../../src/storage/git/stored-blocks.ts';
import { diffTreeViews, FILE_MODE, TREE_MODE, TreeView } from '../../src/storage/git/tree.ts';
import type { TreeEdit } from '../../src/storage/git/tree.ts';

const run = promisify(execFile);
const BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
const OTHER_BLOB = '0000000000000000000000000000000000000001';
const TREE = '4b825dc642cb6eb9a060e54bf8d69288fbb4904e';

function build(entries: { name: string; folder: boolean; oid?: string }[]): TreeView {
  return TreeView.EMPTY.edit(
    entries.map(({ name, folder, oid }) => ({ name, entry: { mode: folder ? TREE_MODE : FILE_MODE, oid: oid ?? (folder ? TREE : BLOB) } })),
  );
}

const nameArbitrary = fc.stringMatching(/^[a-z0-9.\-_]{1,6}$/).filter((name) => name !== '.' && name !== '..');

describe('git formats', () => {
  describe('TreeView', () => {
    it('orders entries exactly like git (folders sort as if named with a trailing slash)', async () => {
      const entries = [
        { name: 'a.md', folder: false },
        { name: 'a', folder: true },
        { name: 'a-b', folder: false },
        { name: 'a0', folder: false },
        { name: 'ab', folder: true },
        { name: 'Z', folder: false },
        { name: 'é.md', folder: false },
        { name: 'a b', folder: false },
      ];
      const view = build(entries);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'git-formats-'));
      try {
        await run('git', ['init', '-q', dir]);
        const listing = entries.map(({ name, folder }) => `${folder ? '040000 tree' : '100644 blob'} ${folder ? TREE : BLOB}\t${name}`).join('\n');
        const child = execFile('git', ['-C', dir, 'mktree', '--missing']);
        const output = new Promise<string>((resolve, reject) => {
          let text = '';
          child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
          child.on('error', reject);
          child.on('close', () => resolve(text.trim()));
        });
        child.stdin?.end(`${listing}\n`);
        expect(prepareObject('tree', view.body).oid).to.equal(await output);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      expect(view.entries().map((entry) => entry.name)).to.deep.equal(['Z', 'a b', 'a-b', 'a.md', 'a', 'a0', 'ab', 'é.md']);
    });

    it('finds, replaces and removes entries by name, for any set of edits', () => {
      fc.assert(
        fc.property(
          fc.uniqueArray(fc.record({ name: nameArbitrary, folder: fc.boolean() }), { selector: (entry) => entry.name, maxLength: 40 }),
          fc.uniqueArray(fc.record({ name: nameArbitrary, remove: fc.boolean() }), { selector: (edit) => edit.name, maxLength: 20 }),
          (initial, changes) => {
            const start = build(initial);
            const edits: TreeEdit[] = changes.map(({ name, remove }) => ({ name, entry: remove ? null : { mode: FILE_MODE, oid: OTHER_BLOB } }));
            const next = start.edit(edits);
            const expected = new Map(initial.map((entry) => [entry.name, entry.folder ? TREE : BLOB]));
            for (const { name, remove } of changes) {
              if (remove) expected.delete(name);
              else expected.set(name, OTHER_BLOB);
            }
            const rebuilt = build([...expected].map(([name, oid]) => ({ name, folder: oid === TREE, oid })));
            expect(next.body.equals(rebuilt.body)).to.equal(true);
            // The offset table carried over by edit() must match a fresh scan of the bytes.
            expect(next.entries()).to.deep.equal(new TreeView(next.body).entries());
            for (const [name, oid] of expected) expect(next.find(name)?.oid).to.equal(oid);
            for (const { name, remove } of changes) if (remove) expect(next.find(name)).to.equal(undefined);
            expect(next.size).to.equal(expected.size);
          },
        ),
        { numRuns: 300 },
      );
    });

    it('diffs two versions of a folder like a naive comparison does', () => {
      fc.assert(
        fc.property(
          fc.uniqueArray(nameArbitrary, { maxLength: 60 }),
          fc.uniqueArray(fc.record({ name: nameArbitrary, kind: fc.constantFrom('remove', 'change', 'add') }), { selector: (edit) => edit.name, maxLength: 10 }),
          (names, changes) => {
            const before = build(names.map((name) => ({ name, folder: false })));
            const after = before.edit(changes.map(({ name, kind }) => ({ name, entry: kind === 'remove' ? null : { mode: FILE_MODE, oid: kind === 'change' ? OTHER_BLOB : BLOB } })));
            const naive = new Map<string, string>();
            const left = new Map(before.entries().map((entry) => [entry.name, entry.oid]));
            const right = new Map(after.entries().map((entry) => [entry.name, entry.oid]));
            for (const [name, oid] of left) if (right.get(name) !== oid) naive.set(name, right.has(name) ? 'changed' : 'removed');
            for (const name of right.keys()) if (!left.has(name)) naive.set(name, 'added');
            const actual = new Map(diffTreeViews(before, after).map((change) => [change.name, change.before && change.after ? 'changed' : change.after ? 'added' : 'removed']));
            expect(actual).to.deep.equal(naive);
          },
        ),
        { numRuns: 500 },
      );
    });
  });

  describe('EWAH bitmaps', () => {
    it('round-trips any set of bit positions', () => {
      fc.assert(
        fc.property(fc.uniqueArray(fc.nat({ max: 5000 }), { maxLength: 200 }), (positions) => {
          const sorted = [...positions].sort((a, b) => a - b);
          expect(decodeEwah(encodeEwah(sorted))).to.deep.equal(sorted);
        }),
        { numRuns: 300 },
      );
    });

    it('encodes the empty bitmap as git does (one zero run-length word)', () => {
      expect(encodeEwah([]).toString('hex')).to.equal('00000000' + '00000001' + '0000000000000000' + '00000000');
    });
  });

  describe('SplitIndex.prune', () => {
    it('keeps the current shared index, the two newest others and any read in the last 30 seconds', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'split-prune-'));
      try {
        const now = Date.now();
        const ages: Record<string, number> = { current: 600, a: 500, b: 400, c: 300, recent: 10, tmp: 120 };
        for (const [name, seconds] of Object.entries(ages)) {
          const file = path.join(dir, name === 'tmp' ? 'sharedindex_0a1b2c' : `sharedindex.${name}`);
          await writeFile(file, '');
          await utimes(file, (now - seconds * 1000) / 1000, (now - seconds * 1000) / 1000);
        }
        await writeFile(path.join(dir, 'index'), '');
        await SplitIndex.prune(dir, path.join(dir, 'sharedindex.current'), now);
        expect((await readdir(dir)).sort()).to.deep.equal(['index', 'sharedindex.current', 'sharedindex.recent', 'sharedindex_0a1b2c']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('SplitIndex as a plain index', () => {
    it('writes the bytes of the full index from slices, which git reads, and rebuilds its base once the changes pile up', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'plain-index-'));
      try {
        await run('git', ['init', '-q', dir]);
        const entry = (file: string, oid = BLOB) => encodeIndexEntry(file, oid, 0o100644);
        const posts = Array.from({ length: 4000 }, (_, i) => `posts/p${String(i).padStart(4, '0')}.md`);
        const base = GitIndex.EMPTY.edit(posts.map((file) => ({ path: file, entry: entry(file) })));
        // Like a run of single-file commits spread over the folder: new files, changed files and deleted ones.
        const added = (i: number) => `posts/p${String(2 * i).padStart(4, '0')}a.md`;
        const edits = Array.from({ length: 1500 }, (_, i) =>
          i % 3 === 0 ? { path: added(i), entry: entry(added(i)) } : { path: posts[2 * i + 1], entry: i % 3 === 1 ? entry(posts[2 * i + 1], OTHER_BLOB) : null },
        );
        let state = SplitIndex.fromFull(base);
        let reference = base;
        const chunkCounts: number[] = [];
        let written: Buffer[] = [];
        for (const [i, edit] of edits.entries()) {
          state = state.edit([edit]);
          reference = reference.edit([edit]);
          if (i % 250 !== 249 && i !== 1000) continue;
          const prepared = await state.prepare(dir, false);
          expect(Buffer.concat(prepared.chunks).equals(Buffer.concat(reference.toChunks()))).to.equal(true);
          chunkCounts.push(prepared.chunks.length);
          state = prepared.index;
          if (i === 1000) written = prepared.chunks;
        }
        // Up to 1024 changes are written as slices (more than one writev takes at once); then the base is rebuilt: one chunk of entries.
        expect(chunkCounts.slice(0, 5).every((count) => count > 3)).to.equal(true);
        expect(chunkCounts[4]).to.be.greaterThan(1024);
        expect(chunkCounts[5]).to.equal(3);
        expect(chunkCounts[6]).to.be.greaterThan(3);
        const file = path.join(dir, '.git', 'index');
        const fd = openSync(file, 'w');
        try {
          expect(writevSync(fd, written)).to.equal(written.reduce((total, chunk) => total + chunk.length, 0));
        } finally {
          closeSync(fd);
        }
        const { stdout } = await run('git', ['ls-files', '--stage'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
        const expected = new Map(posts.map((file) => [file, BLOB]));
        for (const edit of edits.slice(0, 1001)) {
          if (edit.entry === null) expected.delete(edit.path);
          else expected.set(edit.path, edit.entry.toString('hex', 40, 60));
        }
        const listed = stdout.trim().split('\n').map((line) => line.split(/\s+/));
        expect(listed.map(([, oid, , file]) => [file, oid])).to.deep.equal([...expected].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('leaves every index an edit was made on as it was, for any tree of edits', async () => {
      // A commit that fails after edit() keeps the index it started from: edits of a derived index must never show in it.
      const files = Array.from({ length: 24 }, (_, i) => `posts/p${String(i).padStart(2, '0')}.md`);
      const entry = (file: string, oid: string) => encodeIndexEntry(file, oid, 0o100644);
      const base = GitIndex.EMPTY.edit(files.slice(0, 12).map((file) => ({ path: file, entry: entry(file, BLOB) })));
      const editArbitrary = fc.record({ file: fc.constantFrom(...files), oid: fc.constantFrom(BLOB, OTHER_BLOB, null) });
      const stepArbitrary = fc.record({ from: fc.option(fc.nat(), { nil: undefined }), edits: fc.uniqueArray(editArbitrary, { selector: (edit) => edit.file, minLength: 1, maxLength: 3 }) });
      await fc.assert(
        fc.asyncProperty(fc.array(stepArbitrary, { maxLength: 80 }), async (steps) => {
          const states = [{ index: SplitIndex.fromFull(base), reference: base }];
          for (const { from, edits } of steps) {
            // Mostly a chain (a burst of commits), sometimes a branch off an older index (a failed commit's).
            const parent = states[from === undefined ? states.length - 1 : from % states.length];
            const edit = edits.map(({ file, oid }) => ({ path: file, entry: oid === null ? null : entry(file, oid) }));
            states.push({ index: parent.index.edit(edit), reference: parent.reference.edit(edit) });
          }
          for (const { index, reference } of states) {
            for (const file of files) {
              const [from, to] = reference.rangeOf(file);
              expect(index.stagedOid(file)).to.equal(to > from ? reference.oidAt(from) : undefined);
            }
            const prepared = await index.prepare(os.tmpdir(), false);
            expect(Buffer.concat(prepared.chunks).equals(Buffer.concat(reference.toChunks()))).to.equal(true);
          }
        }),
        { numRuns: 100 },
      );
    });
  });

  describe('GitIndex', () => {
    it('keeps entries sorted by path through edits and parses its own output', () => {
      const entry = (file: string) => encodeIndexEntry(file, BLOB, 0o100644);
      let index = GitIndex.EMPTY.edit(['b.md', 'a/z.md', 'a.md', 'c/d/e.md'].map((file) => ({ path: file, entry: entry(file) })));
      index = index.edit([
        { path: 'a.md', entry: null },
        { path: 'aa.md', entry: entry('aa.md') },
      ]);
      const parsed = GitIndex.parse(Buffer.concat(index.toChunks()));
      expect(parsed?.link).to.equal(undefined);
      const paths = Array.from({ length: parsed?.index.size ?? 0 }, (_, i) => parsed?.index.pathAt(i));
      expect(paths).to.deep.equal(['a/z.md', 'aa.md', 'b.md', 'c/d/e.md']);
    });

    it('keeps its entries and their positions right through any series of edits', () => {
      const pathArbitrary = fc.stringMatching(/^[a-z]{1,3}(\/[a-z]{1,3}){0,2}\.md$/);
      fc.assert(
        fc.property(fc.array(fc.uniqueArray(fc.record({ path: pathArbitrary, remove: fc.boolean() }), { selector: (edit) => edit.path, maxLength: 15 }), { maxLength: 5 }), (rounds) => {
          let index = GitIndex.EMPTY;
          const expected = new Set<string>();
          for (const round of rounds) {
            index = index.edit(round.map(({ path: file, remove }) => ({ path: file, entry: remove ? null : encodeIndexEntry(file, BLOB, 0o100644) })));
            for (const { path: file, remove } of round) {
              if (remove) expected.delete(file);
              else expected.add(file);
            }
          }
          const sorted = [...expected].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
          expect(Array.from({ length: index.size }, (_, i) => index.pathAt(i))).to.deep.equal(sorted);
          // The offset table carried over by edit() must match a fresh parse of the bytes.
          const parsed = GitIndex.parse(Buffer.concat(index.toChunks())).index;
          expect(Array.from({ length: parsed.size }, (_, i) => [parsed.pathAt(i), parsed.oidAt(i)])).to.deep.equal(sorted.map((file) => [file, BLOB]));
          for (const file of sorted) expect(index.rangeOf(file)[1] - index.rangeOf(file)[0]).to.equal(1);
        }),
        { numRuns: 200 },
      );
    });

    it('rejects a file with a wrong checksum', () => {
      const chunks = GitIndex.EMPTY.edit([{ path: 'a.md', entry: encodeIndexEntry('a.md', BLOB, 0o100644) }]).toChunks();
      const data = Buffer.concat(chunks);
      data[data.length - 1] ^= 0xff;
      expect(() => GitIndex.parse(data)).to.throw(IndexFormatError, 'checksum');
    });
  });

  describe('packs', () => {
    let repo: string;
    beforeEach(async () => {
      repo = await mkdtemp(path.join(os.tmpdir(), 'cms-pack-'));
      await run('git', ['init', '-q', repo]);
    });
    afterEach(() => rm(repo, { recursive: true, force: true }));

    const blob = (text: string | Buffer) => prepareObject('blob', Buffer.from(text));
    const pseudoRandom = (length: number, seed: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 7919 + seed * 104729) % 251));

    it('writes packs git verifies and reads back, with deltas of every shape', async () => {
      const base = pseudoRandom(200_000, 1);
      const targets = [
        Buffer.concat([Buffer.from('inserted at the start'), base]),
        Buffer.concat([base, Buffer.from('appended')]),
        // A change past 64 KiB (copy offsets of three bytes) and a middle longer than one insert instruction (127 bytes).
        Buffer.concat([base.subarray(0, 70_000), pseudoRandom(300, 2), base.subarray(70_100)]),
        base.subarray(0, 150_000),
        Buffer.concat([base.subarray(0, 10), base.subarray(199_990)]),
        pseudoRandom(5_000, 3),
      ];
      const baseObject = blob(base);
      const asDelta = (target: Buffer) => {
        const delta = encodeDelta(base, target);
        return delta === undefined ? blob(target) : { oid: blob(target).oid, deltaOf: baseObject.oid, delta };
      };
      const objects = [baseObject, ...targets.map(asDelta)];
      const written = writePack(path.join(repo, '.git/objects/pack'), objects, { fast: true });
      const verified = (await run('git', ['-C', repo, 'verify-pack', '-v', `.git/objects/pack/${written.name}.idx`])).stdout;
      expect(verified).to.contain(`${written.name}.pack: ok`);
      // Four targets share enough with the base to be deltas; the last two do not.
      expect(verified).to.match(/chain length = 1: 4 objects/);
      for (const [i, target] of targets.entries()) {
        const { stdout } = await run('git', ['-C', repo, 'cat-file', 'blob', objects[i + 1].oid], { encoding: 'buffer', maxBuffer: 1024 * 1024 });
        expect(Buffer.compare(stdout, target), `target ${i}`).to.equal(0);
      }
      await run('git', ['-C', repo, 'fsck', '--strict']);
    });

    it('says where each entry is and which bodies a later pack should compress (every blob of a fast pack), and reads whole entries back', async () => {
      const large = blob(pseudoRandom(100_000, 4));
      const small = blob('a small file\n');
      const packDir = path.join(repo, '.git/objects/pack');
      for (const fast of [true, false]) {
        const written = writePack(packDir, [large, small], { fast });
        const pack = await readFile(path.join(packDir, `${written.name}.pack`));
        for (const object of [large, small]) {
          const entry = written.entries.get(object.oid);
          expect(entry?.compressLater, `fast: ${fast}`).to.equal(fast);
          const bytes = pack.subarray(entry?.offset, (entry?.offset ?? 0) + (entry?.length ?? 0));
          expect(Buffer.compare(entryBody(bytes), Buffer.from(object.body))).to.equal(0);
        }
      }
    });

    it('frames small trees and commits as stored, copied as they are by later packs; compresses blobs unless the pack is fast', async () => {
      const file = blob('a small file\n'.repeat(20));
      const tree = prepareObject('tree', Buffer.concat([Buffer.from('100644 a.md\0'), Buffer.from(file.oid, 'hex')]));
      const commit = prepareObject('commit', Buffer.from(`tree ${tree.oid}\nauthor A <a@b> 1700000000 +0000\ncommitter A <a@b> 1700000000 +0000\n\nm\n`));
      const packDir = path.join(repo, '.git/objects/pack');
      for (const fast of [true, false]) {
        const written = writePack(packDir, [commit, tree, file], { fast });
        const pack = await readFile(path.join(packDir, `${written.name}.pack`));
        for (const object of [commit, tree, file]) {
          const entry = written.entries.get(object.oid);
          expect(entry?.compressLater, object.type).to.equal(fast && object.type === 'blob');
          const bytes = pack.subarray(entry?.offset, (entry?.offset ?? 0) + (entry?.length ?? 0));
          // Past the one-byte type-and-size header (all three are under 2 KiB): 0x01 is zlib's level-0 header byte, a stored first block follows.
          const stream = bytes.subarray(bytes[0] & 0x80 ? 2 : 1);
          expect(stream[1] === 0x01 && (stream[2] & 0x06) === 0, `${object.type}, fast: ${fast}`).to.equal(fast || object.type !== 'blob');
        }
        expect((await run('git', ['-C', repo, 'verify-pack', `.git/objects/pack/${written.name}.idx`])).stderr).to.equal('');
      }
      expect((await run('git', ['-C', repo, 'cat-file', '-p', commit.oid])).stdout).to.contain(`tree ${tree.oid}`);
      expect((await run('git', ['-C', repo, 'ls-tree', tree.oid])).stdout).to.contain(`blob ${file.oid}\ta.md`);
    });

    it('stores a large body as uncompressed blocks cut from the last version, which git reads', async () => {
      let body = pseudoRandom(100_000, 5);
      let blocks = blocksOf(body);
      const versions = [];
      for (let i = 0; i < 20; i += 1) {
        const at = (i * 7919) % body.length;
        const next = Buffer.concat([body.subarray(0, at), pseudoRandom(40 + i, i), body.subarray(Math.min(body.length, at + (i % 3) * 30))]);
        const { prefix, suffix } = sharedEnds(body, next);
        blocks = reframe(blocks, next, prefix, suffix);
        body = next;
        versions.push({ ...blob(body), blocks });
      }
      const written = writePack(path.join(repo, '.git/objects/pack'), versions);
      expect([...written.entries.values()].every(({ compressLater }) => compressLater)).to.equal(true);
      expect((await run('git', ['-C', repo, 'verify-pack', `.git/objects/pack/${written.name}.idx`])).stderr).to.equal('');
      const { stdout } = await run('git', ['-C', repo, 'cat-file', 'blob', versions[19].oid], { encoding: 'buffer', maxBuffer: 1024 * 1024 });
      expect(Buffer.compare(stdout, body)).to.equal(0);
    });

    it('reads an object whose zlib stream is much longer than its body (padded with empty blocks), and the objects after it', async () => {
      // Past the bytes a reader first takes for a stream of this body (pack-reader.ts compressedBound), as an odd encoder may write it.
      const padded = prepareObject('blob', Buffer.from('padded\n'));
      const after = prepareObject('blob', Buffer.from('after\n'));
      const storedFinal = (body: Buffer) => Buffer.concat([Buffer.from([0x01, body.length & 0xff, body.length >> 8, ~body.length & 0xff, (~body.length >> 8) & 0xff]), body]);
      const adler = (body: Buffer) => {
        let a = 1;
        let b = 0;
        for (const byte of body) {
          a = (a + byte) % 65521;
          b = (b + a) % 65521;
        }
        return Buffer.from([b >> 8, b & 0xff, a >> 8, a & 0xff]);
      };
      const emptyBlock = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);
      const stream = (body: Buffer, empties: number) => Buffer.concat([Buffer.from([0x78, 0x01]), ...Array.from({ length: empties }, () => emptyBlock), storedFinal(body), adler(body)]);
      // A blob entry's header for bodies under 16 bytes: type 3, size in the low four bits.
      const entry = (body: Buffer, empties: number) => Buffer.concat([Buffer.from([0x30 | body.length]), stream(body, empties)]);
      const header = Buffer.from('PACK\0\0\0\x02\0\0\0\x02', 'latin1');
      const body = Buffer.concat([header, entry(Buffer.from(padded.body), 200), entry(Buffer.from(after.body), 0)]);
      const packFile = path.join(repo, '.git/objects/pack/pack-padded.pack');
      await writeFile(packFile, Buffer.concat([body, createHash('sha1').update(body).digest()]));
      await run('git', ['-C', repo, 'index-pack', packFile]);
      const reader = new ObjectReader(path.join(repo, '.git/objects'));
      try {
        expect((await reader.readBlob(padded.oid))?.toString()).to.equal('padded\n');
        expect((await reader.readBlob(after.oid))?.toString()).to.equal('after\n');
      } finally {
        reader.close();
      }
    });

    it('removes only its own temp files, and only old ones', async () => {
      const packDir = path.join(repo, '.git/objects/pack');
      await writeFile(path.join(packDir, 'tmp_cms_0123456789ab'), 'old');
      await writeFile(path.join(packDir, 'tmp_cms_ba9876543210'), 'new');
      await writeFile(path.join(packDir, 'tmp_pack_Xy12Ab'), 'git');
      const hourAgo = new Date(Date.now() - 61 * 60 * 1000);
      await utimes(path.join(packDir, 'tmp_cms_0123456789ab'), hourAgo, hourAgo);
      await utimes(path.join(packDir, 'tmp_pack_Xy12Ab'), hourAgo, hourAgo);
      removeStalePackTemps(packDir);
      expect((await readdir(packDir)).sort()).to.deep.equal(['tmp_cms_ba9876543210', 'tmp_pack_Xy12Ab']);
    });
  });

  describe('deflate sized to its input', () => {
    it('gives streams that inflate back, at every window size and level', () => {
      const sizes = [0, 1, 249, 250, 251, 762, 763, 2000, 32_768 - 262, 32_768, 100_000];
      for (const size of sizes) {
        const body = Buffer.concat([Buffer.from(Array.from({ length: Math.floor(size / 2) }, (_, i) => (i * 7919 + size) % 251)), Buffer.alloc(size - Math.floor(size / 2), 'ab')]);
        for (const level of [0, 1, 6]) expect(Buffer.compare(inflateSync(deflateFitted(body, level)), body), `${size} bytes at level ${level}`).to.equal(0);
      }
    });

    it('spends no compression on a large body that is compressed already (media), and still compresses text', () => {
      const media = randomBytes(2 * 1024 * 1024);
      // A compressed file's own header is not what is sampled alone: its start may compress, its middle does not.
      media.fill(0, 0, 64 * 1024);
      const text = Buffer.from('---\ntitle: Hello\n---\nSome words of an entry.\n'.repeat(50_000));
      expect(compresses(media.subarray(64 * 1024))).to.equal(false);
      expect(compresses(media)).to.equal(true);
      expect(compresses(text)).to.equal(true);
      expect(Buffer.compare(inflateSync(deflateUnlessCompressed(media.subarray(64 * 1024))), media.subarray(64 * 1024))).to.equal(0);
      expect(deflateUnlessCompressed(text).length).to.be.lessThan(text.length / 10);
    });
  });

  describe('stored blocks', () => {
    it('frame any series of edits as a zlib stream of the body, reusing the blocks the edits leave alone', () => {
      const edit = fc.record({ at: fc.nat(), removed: fc.nat({ max: 20_000 }), inserted: fc.uint8Array({ maxLength: 300 }) });
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 60_000 }), fc.array(edit, { maxLength: 12 }), (start, edits) => {
          let body = Buffer.from(start);
          let blocks = blocksOf(body);
          for (const { at, removed, inserted } of edits) {
            const from = body.length === 0 ? 0 : at % body.length;
            const next = Buffer.concat([body.subarray(0, from), inserted, body.subarray(Math.min(body.length, from + removed))]);
            const { prefix, suffix } = sharedEnds(body, next);
            const previous = new Set(blocks.sums.map((sum, i) => `${sum}/${blocks.lengths[i]}`));
            blocks = reframe(blocks, next, prefix, suffix);
            body = next;
            expect(Buffer.compare(inflateSync(Buffer.concat(storedStream(body, blocks))), body)).to.equal(0);
            expect(blocks.lengths.reduce((total, length) => total + length, 0)).to.equal(body.length);
            // A small edit cuts at most the few blocks around it anew.
            const fresh = blocks.sums.filter((sum, i) => !previous.has(`${sum}/${blocks.lengths[i]}`)).length;
            if (inserted.length + removed < 1000) expect(fresh).to.be.at.most(3);
          }
        }),
        { numRuns: 150 },
      );
    });
  });

  describe('commit messages', () => {
    it('appends trailers after a blank line and splits them back off', () => {
      const message = composeMessage('Update posts/hello\n\nChanged the title.', { 'Cms-Entry': 'e1', 'Cms-Actor': 'user:u1\nsneaky' });
      expect(message).to.equal('Update posts/hello\n\nChanged the title.\n\nCms-Entry: e1\nCms-Actor: user:u1 sneaky\n');
      expect(splitTrailers(message)).to.deep.equal({ message: 'Update posts/hello\n\nChanged the title.', trailers: { 'Cms-Entry': 'e1', 'Cms-Actor': 'user:u1 sneaky' } });
    });

    it('never reads the subject line as a trailer', () => {
      expect(splitTrailers('Fix: a typo\n')).to.deep.equal({ message: 'Fix: a typo', trailers: {} });
      expect(splitTrailers('Subject\n\nnot a trailer line\nKey: value\n')).to.deep.equal({ message: 'Subject\n\nnot a trailer line\nKey: value', trailers: {} });
    });
  });
});
