// The start-up snapshot of parsed entries (docs/performance.md): a graceful
// close leaves it in cache/, the next start takes unchanged entries from it,
// and anything their parse depends on (the files, the type, the code) or a
// damaged file makes the start parse them again.
import { expect } from 'chai';
import { mkdtemp, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EntrySnapshotSaver, entrySnapshotStamp, type SnapshotRecord } from '../../src/domain/content/entry-snapshot.ts';
import { createLogger } from '../../src/lib/logger.ts';
import type { StoredEntry } from '../../src/domain/model/entry.ts';
import { codeFingerprint, SnapshotFile } from '../../src/storage/snapshot-file.ts';
import { buildAdminServer, FULL_ACCESS } from '../helpers/auth.ts';
import { externalCommit } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer } from '../helpers/server.ts';
import { removeAtExit } from '../helpers/temp-folders.ts';

const TYPE = 'default/types/posts.yaml';
const HELLO = 'default/entries/posts/hello.md';
const POSTS_TYPE = 'label: Posts\nfields:\n  content:\n    type: markdown\n';

const post = (title: string, extra = '') => `---\nid: post-${title.toLowerCase().replace(/\W+/g, '-')}\ntitle: ${title}\n${extra}---\n\nThe body of ${title}.\n`;

interface Start {
  entries: StoredEntry[];
  problems: string[];
}

describe('entry snapshot', () => {
  let dataDir: string;
  let repo: string;
  let snapshotFile: string;

  beforeEach(async () => {
    const server = await startTestServer();
    dataDir = server.dataDir;
    await server.close({ keepData: true });
    removeAtExit(dataDir);
    repo = path.join(dataDir, 'content');
    snapshotFile = path.join(dataDir, 'cache', 'entries.snapshot');
    await externalCommit(
      repo,
      {
        write: {
          [TYPE]: POSTS_TYPE,
          [HELLO]: post('Hello', 'tags: [a, b]\nstatus: draft\n'),
          'default/entries/posts/hello.de.md': '---\ntitle: Hallo\n---\n\nDer Text.\n',
          'default/entries/posts/no-id.md': '---\ntitle: No id\nlastmod: 2024-03-04 05:06\n---\n',
          'default/entries/posts/broken.md': '---\nstatus: nonsense\ntitle: Broken\n---\n',
        },
      },
      'Add posts by hand',
    );
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  // A start until its first answers, then a graceful close (which writes the snapshot when it is due).
  async function start(): Promise<Start> {
    const server = await startTestServer({ dataDir });
    try {
      const entries = server.services.content.entries('default').sort((a, b) => a.slug.localeCompare(b.slug));
      const problems = server.services.problems.list('default').map((problem) => `${problem.path}: ${problem.message}`);
      return { entries, problems };
    } finally {
      await server.close({ keepData: true });
    }
  }

  async function startWithoutSnapshot(): Promise<Start> {
    await rm(snapshotFile, { force: true });
    return start();
  }

  // Rewrites the snapshot with `change` applied to each record, as `file` (the running code's by default) writes it.
  async function doctorSnapshot(change: (record: SnapshotRecord) => void, file = new SnapshotFile(snapshotFile)): Promise<void> {
    const read = await new SnapshotFile(snapshotFile).read(entrySnapshotStamp());
    if (!('values' in read)) throw new Error(`No snapshot to doctor: ${read.unusable}`);
    const records = read.values as SnapshotRecord[];
    records.forEach(change);
    await file.write(entrySnapshotStamp(), records);
  }

  const titleOf = (started: Start, slug: string) => started.entries.find((entry) => entry.slug === slug)?.title;

  it('serves the same entries from the snapshot as from the files, and still reports the entry with a problem', async () => {
    const first = await start();
    expect((await readFile(snapshotFile)).length).to.be.greaterThan(0);
    const fromSnapshot = await start();
    const parsed = await startWithoutSnapshot();
    expect(fromSnapshot.entries.map((entry) => entry.slug)).to.deep.equal(['hello', 'no-id']);
    expect(fromSnapshot).to.deep.equal(parsed);
    expect(first).to.deep.equal(parsed);
    expect(fromSnapshot.problems).to.have.length(1);
    expect(fromSnapshot.problems[0]).to.match(/^default\/entries\/posts\/broken\.md: /);
  });

  it('takes an unchanged entry from the snapshot instead of parsing its files', async () => {
    await start();
    await doctorSnapshot((record) => (record.entry.title = `${record.entry.title} (from the snapshot)`));
    expect(titleOf(await start(), 'hello')).to.equal('Hello (from the snapshot)');
  });

  it('holds what the server wrote and what commits from outside brought while it ran, not only what its start read', async () => {
    await start();
    const { server, token } = await buildAdminServer({ dataDir, token: FULL_ACCESS });
    try {
      const created = await server.request('POST', '/api/v1/workspaces/default/content/posts', { body: { title: 'Made here', slug: 'made-here', data: { content: 'Written through the API.' } }, token });
      expect(created.status, created.text).to.equal(201);
      await externalCommit(repo, { write: { 'default/entries/posts/by-hand.md': post('By hand') } }, 'Add a post by hand');
      await pollUntil(async () => server.services.content.entries('default').some((entry) => entry.slug === 'by-hand'), (arrived) => arrived);
    } finally {
      await server.close({ keepData: true });
    }
    await doctorSnapshot((record) => (record.entry.title = `${record.entry.title} (from the snapshot)`));
    const started = await start();
    expect(titleOf(started, 'made-here')).to.equal('Made here (from the snapshot)');
    expect(titleOf(started, 'by-hand')).to.equal('By hand (from the snapshot)');
    await doctorSnapshot((record) => (record.entry.title = record.entry.title.replace(' (from the snapshot)', '')));
    const fromSnapshot = await start();
    expect(fromSnapshot).to.deep.equal(await startWithoutSnapshot());
  });

  it('parses an entry whose file changed', async () => {
    await start();
    await externalCommit(repo, { write: { [HELLO]: post('Hello again') } }, 'Edit hello by hand');
    expect(titleOf(await start(), 'hello')).to.equal('Hello again');
  });

  it('keeps the unchanged entries in the snapshot that a start with a changed file writes', async () => {
    await start();
    await externalCommit(repo, { write: { [HELLO]: post('Hello again') } }, 'Edit hello by hand');
    await start();
    await doctorSnapshot((record) => (record.entry.title = `${record.entry.title} (from the snapshot)`));
    const started = await start();
    expect(titleOf(started, 'no-id')).to.equal('No id (from the snapshot)');
    expect(titleOf(started, 'hello')).to.equal('Hello again (from the snapshot)');
  });

  it('parses an entry whose translation file changed', async () => {
    await start();
    await externalCommit(repo, { write: { 'default/entries/posts/hello.de.md': '---\ntitle: Hallo nochmal\n---\n' } }, 'Edit the translation by hand');
    const started = await start();
    expect(started).to.deep.equal(await startWithoutSnapshot());
    expect(started.entries.find((entry) => entry.slug === 'hello')?.translations.de?.title).to.equal('Hallo nochmal');
  });

  it('parses the entries of a type whose definition changed', async () => {
    await start();
    await externalCommit(repo, { write: { [TYPE]: POSTS_TYPE.replace('content:', 'body:') } }, 'Rename the body field by hand');
    const started = await start();
    expect(started.entries.find((entry) => entry.slug === 'hello')?.data.body).to.equal('The body of Hello.');
    expect(started).to.deep.equal(await startWithoutSnapshot());
  });

  it('parses the entries of a type whose locales changed', async () => {
    await start();
    await externalCommit(repo, { write: { [TYPE]: `${POSTS_TYPE}locales: [en, de]\ndefault_locale: en\n` } }, 'Localize posts by hand');
    const started = await start();
    expect(Object.keys(started.entries.find((entry) => entry.slug === 'hello')?.translations ?? {}).sort()).to.deep.equal(['de', 'en']);
    expect(started).to.deep.equal(await startWithoutSnapshot());
  });

  it('ignores a snapshot that another build of the server wrote', async () => {
    await start();
    await doctorSnapshot((record) => (record.entry.title = 'Written by another build'), new SnapshotFile(snapshotFile, 'another build'));
    expect(titleOf(await start(), 'hello')).to.equal('Hello');
  });

  it('ignores a damaged snapshot: a changed byte, or a cut-off end', async () => {
    await start();
    await doctorSnapshot((record) => (record.entry.title = `${record.entry.title}!`));
    const bytes = await readFile(snapshotFile);
    const title = bytes.indexOf('Hello!');
    expect(title).to.be.greaterThan(0);
    bytes.write('J', title, 'latin1');
    await writeFile(snapshotFile, bytes);
    expect(titleOf(await start(), 'hello')).to.equal('Hello');
    await doctorSnapshot((record) => (record.entry.title = `${record.entry.title}!`));
    await truncate(snapshotFile, bytes.length - 10);
    expect(titleOf(await start(), 'hello')).to.equal('Hello');
  });

  it('ignores a file that is no snapshot at all', async () => {
    await start();
    await writeFile(snapshotFile, 'not a snapshot');
    expect(await start()).to.deep.equal(await startWithoutSnapshot());
  });
});

describe('entry snapshot stamp', () => {
  it('tells time zones apart, in which a date without one is read', () => {
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'UTC';
      const utc = entrySnapshotStamp();
      process.env.TZ = 'America/New_York';
      expect(entrySnapshotStamp()).to.not.equal(utc);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('code fingerprint', () => {
  it('changes when a code file is rewritten, even at the same size', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'cms-code-'));
    removeAtExit(folder);
    await writeFile(path.join(folder, 'a.js'), 'export const a = 1;\n');
    await writeFile(path.join(folder, 'notes.md'), 'Not code.\n');
    const before = codeFingerprint(folder);
    expect(codeFingerprint(folder)).to.equal(before);
    await writeFile(path.join(folder, 'notes.md'), 'Still not code, only longer.\n');
    expect(codeFingerprint(folder), 'a file that is no code').to.equal(before);
    await writeFile(path.join(folder, 'a.js'), 'export const a = 2;\n');
    await utimes(path.join(folder, 'a.js'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    const rewritten = codeFingerprint(folder);
    expect(rewritten).to.not.equal(before);
    await writeFile(path.join(folder, 'a.js'), 'export const a = 22;\n');
    await utimes(path.join(folder, 'a.js'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(codeFingerprint(folder), 'a longer file').to.not.equal(rewritten);
  });
});

describe('entry snapshot saver', () => {
  const silent = createLogger('silent');
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'cms-saver-'));
    removeAtExit(folder);
  });

  it('writes once HEAD stood still for a whole look, never while commits go on, and not again for the same HEAD', async () => {
    const file = new SnapshotFile(path.join(folder, 'entries.snapshot'));
    let looks = 0;
    const writtenAtLook: number[] = [];
    // HEAD moves at each of the first five looks (a burst of commits), then stays.
    const head = async () => `commit-${Math.min((looks += 1), 5)}`;
    const records = async () => {
      writtenAtLook.push(looks);
      return [];
    };
    const saver = new EntrySnapshotSaver(file, { records, head, entryCount: () => 0 }, silent, { head: 'commit-0', outdated: false }, 5);
    try {
      await pollUntil(async () => looks, (count) => count >= 12);
      expect(writtenAtLook).to.deep.equal([6]);
      expect('values' in (await file.read(entrySnapshotStamp()))).to.equal(true);
    } finally {
      await saver.close();
    }
  });

  it('writes a due snapshot at a graceful close only when it is small: the next start waits for the closing server', async () => {
    const writes: number[] = [];
    for (const count of [10, 20_001]) {
      const file = new SnapshotFile(path.join(folder, `entries-${count}.snapshot`));
      const saver = new EntrySnapshotSaver(file, { records: async () => (writes.push(count), []), head: async () => 'commit-1', entryCount: () => count }, silent, { head: 'commit-1', outdated: true }, 3_600_000);
      await saver.close();
    }
    expect(writes).to.deep.equal([10]);
  });
});
