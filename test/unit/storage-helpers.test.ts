import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { lowerBound } from '../../src/lib/binary-search.ts';
import { groupBy } from '../../src/lib/group-by.ts';
import { errnoCode } from '../../src/lib/errno.ts';
import { createLimiter } from '../../src/lib/limiter.ts';
import { LruCache } from '../../src/lib/lru-cache.ts';
import { sha256Of, sha256PassThrough } from '../../src/lib/sha256.ts';
import { writeFileAtomic } from '../../src/storage/atomic-write.ts';
import { FilesAhead } from '../../src/storage/files-ahead.ts';
import { readCleanText } from '../../src/storage/git/working-tree.ts';
import { KeyedWriteQueue, WriteQueue } from '../../src/storage/write-queue.ts';
import { pollUntil } from '../helpers/poll.ts';

describe('storage helpers', () => {
  describe('WriteQueue', () => {
    it('runs tasks one at a time in call order, and a failure rejects only its own task', async () => {
      const queue = new WriteQueue();
      const order: string[] = [];
      let running = 0;
      const task = (name: string, fail = false) =>
        queue.run(async () => {
          running += 1;
          expect(running).to.equal(1);
          await sleep(1);
          order.push(name);
          running -= 1;
          if (fail) throw new Error(name);
          return name;
        });
      const results = await Promise.allSettled([task('a'), task('b', true), task('c')]);
      expect(order).to.deep.equal(['a', 'b', 'c']);
      expect(results.map((result) => result.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
      expect(queue.size).to.equal(0);
      expect(queue.isRunning).to.equal(false);
    });

    it('keeps different keys independent and the same key in order', async () => {
      const queue = new KeyedWriteQueue();
      const events: string[] = [];
      const slow = queue.run('a', async () => {
        await sleep(20);
        events.push('a1');
      });
      const second = queue.run('a', async () => {
        events.push('a2');
      });
      const other = queue.run('b', async () => {
        events.push('b1');
      });
      await Promise.all([slow, second, other]);
      expect(events).to.deep.equal(['b1', 'a1', 'a2']);
    });
  });

  describe('createLimiter', () => {
    it('never runs more than the limit at once and runs everything', async () => {
      const limit = createLimiter(3);
      let running = 0;
      let peak = 0;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          limit(async () => {
            running += 1;
            peak = Math.max(peak, running);
            await sleep(1);
            running -= 1;
            return i;
          }),
        ),
      );
      expect(peak).to.equal(3);
      expect(results).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
    });
  });

  describe('lowerBound', () => {
    it('finds the first position not before the target, or the size when all are before it', () => {
      const sorted = [1, 3, 3, 5, 8];
      const at = (target: number) => lowerBound(sorted.length, (i) => sorted[i] - target);
      expect([0, 1, 2, 3, 4, 5, 8, 9].map(at)).to.deep.equal([0, 0, 1, 1, 3, 3, 4, 5]);
      expect(lowerBound(0, () => 0)).to.equal(0);
    });
  });

  describe('groupBy', () => {
    it('keeps each group in the order of the items and leaves out items without a key', () => {
      const groups = groupBy(['a/1', 'b/1', 'a/2', 'root', 'a/3'], (path) => (path.includes('/') ? path.split('/')[0] : undefined));
      expect([...groups]).to.deep.equal([['a', ['a/1', 'a/2', 'a/3']], ['b', ['b/1']]]);
    });
  });

  describe('sha256PassThrough', () => {
    it('passes the bytes on unchanged and hashes them on the way, like sha256Of', async () => {
      const chunks = [Buffer.from('first chunk, '), Buffer.alloc(100_000, 7), Buffer.from('last')];
      const hashing = sha256PassThrough();
      const passed: Buffer[] = [];
      await pipeline(Readable.from(chunks), hashing.stream, new Writable({
        write(chunk: Buffer, _encoding, callback) {
          passed.push(chunk);
          callback();
        },
      }));
      expect(Buffer.concat(passed)).to.deep.equal(Buffer.concat(chunks));
      expect(hashing.digest()).to.equal(createHash('sha256').update(Buffer.concat(chunks)).digest('hex'));
      expect(await sha256Of(Readable.from(chunks))).to.equal(createHash('sha256').update(Buffer.concat(chunks)).digest('hex'));
    });
  });

  describe('LruCache', () => {
    it('evicts the least recently used values past the weight limit', () => {
      const cache = new LruCache<string, string>(6, (value) => value.length);
      cache.set('a', 'aa');
      cache.set('b', 'bb');
      cache.get('a');
      cache.set('c', 'cc');
      cache.set('d', 'dd');
      expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).to.deep.equal(['aa', undefined, 'cc', 'dd']);
      cache.set('huge', 'x'.repeat(7));
      expect(cache.get('huge')).to.equal(undefined);
    });

    it('tells onEvict of each value dropped for room, not of delete(), and keeps its weight', () => {
      const evicted: string[] = [];
      const cache = new LruCache<string, string>(6, (value) => value.length, (key) => evicted.push(key));
      cache.set('a', 'aa');
      cache.set('b', 'bb');
      cache.set('c', 'cc');
      cache.get('a');
      cache.set('d', 'dd');
      expect(evicted).to.deep.equal(['b']);
      expect(cache.delete('c')).to.equal(true);
      expect(cache.delete('c')).to.equal(false);
      expect([cache.size, cache.weight, cache.keys()]).to.deep.equal([2, 4, ['a', 'd']]);
      cache.set('huge', 'x'.repeat(7));
      expect(evicted).to.deep.equal(['b', 'huge']);
    });

    it('keeps the order of use through gets, re-sets and deletes, and evicts from the least recently used end', () => {
      const evicted: string[] = [];
      const cache = new LruCache<string, string>(10, (value) => value.length, (key) => evicted.push(key));
      for (const key of ['a', 'b', 'c', 'd', 'e']) cache.set(key, key.repeat(2));
      // A hit on the oldest, one in the middle, the newest (already last), and a miss.
      expect([cache.get('a'), cache.get('c'), cache.get('c'), cache.get('x')]).to.deep.equal(['aa', 'cc', 'cc', undefined]);
      expect(cache.keys()).to.deep.equal(['b', 'd', 'e', 'a', 'c']);
      // A re-set moves its key to the newest end with the new weight; a delete unlinks one in the middle.
      cache.set('d', 'd');
      expect(cache.delete('e')).to.equal(true);
      expect([cache.keys(), cache.weight]).to.deep.equal([['b', 'a', 'c', 'd'], 7]);
      // Room for a value of 7 (14 of 10 held): the oldest go, oldest first, until the weight fits.
      cache.set('f', 'f'.repeat(7));
      expect([evicted, cache.keys(), cache.weight]).to.deep.equal([['b', 'a'], ['c', 'd', 'f'], 10]);
      // A re-set too heavy to hold drops the old value; only the new one is told as evicted.
      cache.set('d', 'd'.repeat(11));
      expect([evicted, cache.keys(), cache.size, cache.weight]).to.deep.equal([['b', 'a', 'd'], ['c', 'f'], 2, 9]);
      cache.clear();
      cache.set('g', 'g');
      expect([cache.keys(), cache.weight, cache.get('f')]).to.deep.equal([['g'], 1, undefined]);
    });
  });

  describe('writeFileAtomic', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'atomic-write-'));
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    it('replaces a file with the given mode and leaves no temp file', async () => {
      const file = path.join(dir, 'doc.json');
      await writeFileAtomic(file, 'first');
      await writeFileAtomic(file, new Uint8Array([0x6f, 0x6b]), { mode: 0o600 });
      expect(await readFile(file, 'utf8')).to.equal('ok');
      expect((await stat(file)).mode & 0o777).to.equal(0o600);
      expect(await readdir(dir)).to.deep.equal(['doc.json']);
    });

    it('removes its temp file and rethrows when the rename fails', async () => {
      const target = path.join(dir, 'taken');
      await mkdir(target);
      await writeFile(path.join(target, 'inner'), 'x');
      let code: string | undefined;
      try {
        await writeFileAtomic(target, 'cannot replace a folder');
      } catch (error) {
        code = errnoCode(error);
      }
      expect(code).to.be.oneOf(['EISDIR', 'ENOTEMPTY', 'EEXIST']);
      expect(await readdir(dir)).to.deep.equal(['taken']);
    });
  });

  describe('FilesAhead', () => {
    let dir: string;
    let count: number;
    let files: FilesAhead;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'files-ahead-'));
      count = 0;
      files = new FilesAhead(() => path.join(dir, `tmp-${(count += 1)}`), 2);
    });
    afterEach(async () => {
      files.close();
      await rm(dir, { recursive: true, force: true });
    });
    const madeAhead = async (names: string[]) => {
      const listed = await pollUntil(async () => (await readdir(dir)).sort(), (found) => found.length >= names.length, { intervalMs: 5 });
      expect(listed).to.deep.equal(names);
    };

    it('writes the first file itself, then into files made ahead, with the mode asked for', async () => {
      const first = files.write([Buffer.from('one '), Buffer.from('file')], 0o444);
      expect(path.basename(first)).to.equal('tmp-1');
      await madeAhead(['tmp-1', 'tmp-2', 'tmp-3']);
      expect((await stat(path.join(dir, 'tmp-2'))).size).to.equal(0);
      const second = files.write([Buffer.from('two')], 0o444);
      expect(path.basename(second)).to.equal('tmp-2');
      for (const [file, text] of [[first, 'one file'], [second, 'two']]) {
        expect(await readFile(file, 'utf8')).to.equal(text);
        expect((await stat(file)).mode & 0o777).to.equal(0o444);
      }
      await madeAhead(['tmp-1', 'tmp-2', 'tmp-3', 'tmp-4']);
    });

    it('writes a new file when the one made ahead was removed, and close() removes those still waiting', async () => {
      files.write([Buffer.from('one')], 0o644);
      await madeAhead(['tmp-1', 'tmp-2', 'tmp-3']);
      await rm(path.join(dir, 'tmp-2'));
      expect(path.basename(files.write([Buffer.from('two')], 0o644))).to.equal('tmp-4');
      files.close();
      // tmp-3 was waiting, and the making the write queued comes after close(): none is left.
      await sleep(50);
      expect((await readdir(dir)).sort()).to.deep.equal(['tmp-1', 'tmp-4']);
    });
  });

  // Reads at start come from the working tree when a file holds the committed blob: its id, as git computes it, decides.
  describe('readCleanText', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'clean-file-'));
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));
    const gitBlobId = (file: string) => execFileSync('git', ['hash-object', file], { encoding: 'utf8' }).trim();

    it('returns the text of a file whose blob id is the one given, and nothing for another id', async () => {
      const contents = ['', 'x', '---\ntitle: "Ünïcödé ✓"\n---\nBody\n', 'a'.repeat(4095), 'b'.repeat(65_504), 'c'.repeat(65_505), 'd\n'.repeat(100_000), 'x'];
      for (const [position, content] of contents.entries()) {
        const file = path.join(dir, `f${position}.md`);
        await writeFile(file, content);
        const oid = gitBlobId(file);
        expect(readCleanText(file, oid), `${content.length} bytes`).to.equal(content);
        expect(readCleanText(file, oid.replace(/^./, (c) => (c === '0' ? '1' : '0'))), `${content.length} bytes`).to.equal(undefined);
      }
    });

    it('returns nothing for a missing file, a folder or a symbolic link to a clean file', async () => {
      const file = path.join(dir, 'a.md');
      await writeFile(file, 'A');
      await mkdir(path.join(dir, 'folder'));
      await symlink('a.md', path.join(dir, 'link.md'));
      const oid = gitBlobId(file);
      expect(readCleanText(path.join(dir, 'missing.md'), oid)).to.equal(undefined);
      expect(readCleanText(path.join(dir, 'folder'), oid)).to.equal(undefined);
      expect(readCleanText(path.join(dir, 'link.md'), oid)).to.equal(undefined);
    });
  });
});
