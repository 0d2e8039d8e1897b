import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../src/errors/app-error.ts';
import { StateStore } from '../../src/storage/state-store.ts';

describe('StateStore', () => {
  let dir: string;
  let store: StateStore;

  beforeEach(async () => {
    dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'state-store-')), 'state');
    store = await StateStore.open(dir);
  });

  afterEach(async () => {
    await rm(path.dirname(dir), { recursive: true, force: true });
  });

  it('returns the fallback for a missing document and the stored value after a write', async () => {
    expect(await store.read('users', { users: [] })).to.deep.equal({ users: [] });
    await store.write('users', { users: [{ id: 'u1', name: 'Ada' }] });
    expect(await store.read('users', { users: [] })).to.deep.equal({ users: [{ id: 'u1', name: 'Ada' }] });
    expect(JSON.parse(await readFile(path.join(dir, 'users.json'), 'utf8'))).to.deep.equal({ users: [{ id: 'u1', name: 'Ada' }] });
  });

  it('keeps the folder at 0700 and documents and logs at 0600', async () => {
    await store.write('tokens', { hashes: [] });
    await store.appendLine('activity', '{"event":"entry.create"}');
    expect((await stat(dir)).mode & 0o777).to.equal(0o700);
    expect((await stat(path.join(dir, 'tokens.json'))).mode & 0o777).to.equal(0o600);
    expect((await stat(path.join(dir, 'activity.jsonl'))).mode & 0o777).to.equal(0o600);
  });

  it('leaves no temp files behind after many concurrent writes', async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.write('settings', { version: i })));
    expect(await readdir(dir)).to.deep.equal(['settings.json']);
    expect(await store.read('settings', {})).to.deep.equal({ version: 39 });
  });

  it('does not lose updates made concurrently', async () => {
    await Promise.all(
      Array.from({ length: 100 }, () =>
        store.update('counter', { count: 0 }, async (current) => {
          await sleep(0);
          return { count: current.count + 1 };
        }),
      ),
    );
    expect(await store.read('counter', { count: 0 })).to.deep.equal({ count: 100 });
    expect(await readdir(dir)).to.deep.equal(['counter.json']);
  });

  it('stores nothing when an update throws and keeps serving later updates', async () => {
    await store.write('roles', { roles: ['admin'] });
    const failed = store.update('roles', { roles: [] as string[] }, () => {
      throw new Error('rejected by the domain');
    });
    const next = store.update('roles', { roles: [] as string[] }, (current) => ({ roles: [...current.roles, 'editor'] }));
    let message = '';
    await failed.catch((error: unknown) => {
      message = error instanceof Error ? error.message : '';
    });
    expect(message).to.equal('rejected by the domain');
    expect(await next).to.deep.equal({ roles: ['admin', 'editor'] });
    expect(await store.read('roles', {})).to.deep.equal({ roles: ['admin', 'editor'] });
  });

  it('applies a write queued after an update last', async () => {
    const update = store.update('webhooks', { hooks: 0 }, async () => {
      await sleep(5);
      return { hooks: 1 };
    });
    const write = store.write('webhooks', { hooks: 2 });
    await Promise.all([update, write]);
    expect(await store.read('webhooks', {})).to.deep.equal({ hooks: 2 });
  });

  it('removes a document, and removing a missing one is fine', async () => {
    await store.write('avatar-u1', { data: 'x' });
    await store.remove('avatar-u1');
    await store.remove('avatar-u1');
    expect(await store.read('avatar-u1', null)).to.equal(null);
  });

  for (const name of ['../users', 'a/b', '.hidden', '', 'users\0', '\uff0e\uff0e']) {
    it(`rejects the unsafe name ${JSON.stringify(name)} with internal_error`, async () => {
      let code: string | undefined;
      try {
        await store.write(name, {});
      } catch (caught) {
        code = caught instanceof AppError ? caught.code : 'not an AppError';
      }
      expect(code).to.equal('internal_error');
    });
  }

  it('rethrows a corrupt document instead of returning the fallback', async () => {
    await writeFile(path.join(dir, 'broken.json'), '{"half":');
    let error: unknown;
    try {
      await store.read('broken', {});
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(SyntaxError);
  });

  it('appends single lines and rotates the log by size, keeping one older file', async () => {
    const small = await StateStore.open(dir, { logRotateBytes: 30 });
    await small.appendLine('activity', 'line one\nwith a newline');
    await small.appendLine('activity', 'line two');
    expect(await small.readLines('activity')).to.deep.equal(['line one with a newline', 'line two']);
    await small.appendLine('activity', 'line three');
    expect(await readFile(path.join(dir, 'activity.jsonl'), 'utf8')).to.equal('line three\n');
    expect(await readFile(path.join(dir, 'activity.jsonl.1'), 'utf8')).to.equal('line one with a newline\nline two\n');
    expect(await small.readLines('activity')).to.deep.equal(['line one with a newline', 'line two', 'line three']);
    for (const word of ['four', 'five', 'six', 'seven', 'eight']) await small.appendLine('activity', `line ${word}`);
    const lines = await small.readLines('activity');
    expect(lines[lines.length - 1]).to.equal('line eight');
    expect(lines).to.not.include('line one with a newline');
  });

  it('writes a burst of lines in order, those that wait together in one append', async () => {
    const store = await StateStore.open(dir);
    const words = Array.from({ length: 500 }, (_, index) => `line ${index}`);
    await Promise.all(words.map((word) => store.appendLine('activity', word)));
    expect(await store.readLines('activity')).to.deep.equal(words);
  });

  it('removes temp files a crashed write left behind when opening', async () => {
    await writeFile(path.join(dir, '.users.json.0123456789ab.tmp'), '{"partial"');
    await writeFile(path.join(dir, 'users.json'), '{"ok":true}');
    const reopened = await StateStore.open(dir);
    expect(await readdir(dir)).to.deep.equal(['users.json']);
    expect(await reopened.read('users', {})).to.deep.equal({ ok: true });
  });
});
