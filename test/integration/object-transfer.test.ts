// Moving a history between content repos (backups, issue 7): export every
// object reachable from HEAD, import it elsewhere, make the imported head a
// merge parent, and see the entry's revisions through the merge — checked
// against the git CLI, which must find the repository sound.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { ContentRepo, MalformedObjectStream, type FileChange } from '../../src/storage/content-repo.ts';
import { commitCount, git } from '../helpers/git.ts';

const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };
const LIMITS = { maxObjectBytes: 1024 * 1024 };
const FILE = 'blog/entries/posts/hello.md';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function entry(title: string): string {
  return `---\nid: abc123def4\ntitle: ${title}\n---\n`;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected a rejection.');
}

describe('ContentRepo history transfer', () => {
  let dir: string;
  let source: ContentRepo;
  let target: ContentRepo;

  const commit = (repo: ContentRepo, changes: FileChange[], message: string, mergeParents?: string[]) =>
    repo.serialize(() => repo.commitChanges({ changes, message, author: AUTHOR, mergeParents }));

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'object-transfer-'));
    source = await ContentRepo.open(path.join(dir, 'source'));
    target = await ContentRepo.open(path.join(dir, 'target'));
    await commit(source, [{ path: FILE, content: entry('One') }], 'Create posts/hello');
    await commit(source, [{ path: FILE, content: entry('Two') }], 'Update posts/hello');
    await commit(source, [{ path: 'blog/types/posts.yaml', content: 'label: Posts\n' }], 'Create type posts');
    await commit(source, [{ path: FILE, content: entry('Three') }], 'Update posts/hello again');
  });
  afterEach(async () => {
    await source.close();
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('exports every reachable object and imports them with the same ids', async () => {
    const head = await source.head();
    const exported = source.exportObjects();
    const stream = await bytesOf(exported.stream);
    expect(await commitCount(source.dir)).to.equal(5);
    const objects = (await git(source.dir, ['rev-list', '--objects', 'HEAD'])).trim().split('\n').length;

    expect(await exported.stats).to.deep.equal({ objects, commits: 5 });
    const checked = await target.importObjects(Readable.from([stream]), { ...LIMITS, dryRun: true });
    expect(checked).to.deep.equal({ objects, commits: 5 });
    expect(await target.hasCompleteHistory(head)).to.equal(false);

    const imported = await target.importObjects(Readable.from([stream.subarray(0, 7), stream.subarray(7)]), LIMITS);
    expect(imported).to.deep.equal({ objects, commits: 5 });
    expect(await target.hasCompleteHistory(head)).to.equal(true);
    expect(await target.listFilesAt(head, 'blog')).to.deep.equal(['blog/entries/posts/hello.md', 'blog/types/posts.yaml']);
    expect(await target.listFilesAt(head, 'blog/entries')).to.deep.equal([FILE]);
    expect(await target.listFilesAt(head, 'nothing')).to.deep.equal([]);
  });

  it('keeps the imported history in the revision log through a merge commit', async () => {
    const head = await source.head();
    await target.importObjects(source.exportObjects().stream, LIMITS);
    await commit(target, [{ path: 'other/entries/pages/about.md', content: entry('About') }], 'Create pages/about');
    const restore = await commit(target, [{ path: FILE, content: entry('Three') }], 'Restore backup', [head]);

    const messages = (await target.log({ paths: [FILE] })).map((found) => found.message.split('\n')[0]);
    expect(messages).to.deep.equal(['Update posts/hello again', 'Update posts/hello', 'Create posts/hello']);
    const cli = (await git(target.dir, ['log', '--format=%s', 'HEAD', '--', FILE])).trim().split('\n');
    expect(cli).to.deep.equal(messages);
    expect((await git(target.dir, ['rev-list', '--parents', '-n', '1', 'HEAD'])).trim().split(' ').slice(1)).to.have.length(2);
    expect(restore.oid).to.equal(await target.head());
    expect((await target.log({ paths: ['other/entries/pages/about.md'] })).map((found) => found.message.split('\n')[0])).to.deep.equal(['Create pages/about']);
    expect(await git(target.dir, ['status', '--porcelain'])).to.equal('');
    await git(target.dir, ['fsck', '--no-progress', '--strict']);
  });

  it('lists a merge that changed the file itself as a revision', async () => {
    const head = await source.head();
    await target.importObjects(source.exportObjects().stream, LIMITS);
    await commit(target, [{ path: FILE, content: entry('Four') }], 'Restore backup', [head]);
    const messages = (await target.log({ paths: [FILE] })).map((found) => found.message.split('\n')[0]);
    expect(messages).to.deep.equal(['Restore backup']);
  });

  it('refuses a merge parent the repository does not have', async () => {
    const head = await source.head();
    const error = await rejection(commit(target, [{ path: FILE, content: entry('X') }], 'Restore', [head]));
    expect(error).to.have.property('code', 'not_found');
  });

  it('rejects malformed streams with MalformedObjectStream', async () => {
    const good = await bytesOf(source.exportObjects().stream);
    const header = good.subarray(0, good.indexOf(0x0a) + 1);
    const badType = Buffer.concat([header, Buffer.from([9, 0, 0, 0, 1]), Buffer.from([0])]);
    const huge = deflateSync(Buffer.alloc(LIMITS.maxObjectBytes + 10));
    const bomb = Buffer.concat([header, Buffer.from([3]), Buffer.alloc(4), huge]);
    bomb.writeUInt32BE(huge.length, header.length + 1);
    const notDeflated = Buffer.concat([header, Buffer.from([3, 0, 0, 0, 3]), Buffer.from('abc')]);
    for (const bytes of [Buffer.from('not a history'), good.subarray(0, good.length - 3), badType, bomb, notDeflated, Buffer.alloc(0)]) {
      const error = await rejection(target.importObjects(Readable.from([bytes]), LIMITS));
      expect(error).to.be.instanceOf(MalformedObjectStream);
    }
  });
});
