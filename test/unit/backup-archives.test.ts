// Hostile ZIP handling and the backup layout (issue 7): the checks of
// zip-reader.ts on archives built byte by byte, and the names, parts and
// manifest rules of backup-format.ts.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { backupNameAt, classifyArchiveName, parseManifest, parseParts, partOfContentPath } from '../../src/domain/backups/backup-format.ts';
import { CheckedZip, type ZipLimits } from '../../src/domain/backups/zip-reader.ts';
import { AppError } from '../../src/errors/app-error.ts';
import { caughtAppError } from '../helpers/errors.ts';
import { buildZip, type ZipEntrySpec } from '../helpers/zip.ts';

const LIMITS: ZipLimits = { maxFiles: 50, maxBytes: 64 * 1024 * 1024 };
const ANY_NAME = () => true;

describe('backup archives', () => {
  let dir: string;
  let counter = 0;

  async function archive(entries: ZipEntrySpec[]): Promise<string> {
    const file = path.join(dir, `a${counter++}.zip`);
    await writeFile(file, buildZip(entries));
    return file;
  }

  async function refusal(entries: ZipEntrySpec[], limits = LIMITS, allowed: (name: string) => boolean = ANY_NAME): Promise<string> {
    const error = await caughtAppError(CheckedZip.open(await archive(entries), limits, allowed));
    expect(error.code).to.equal('validation_failed');
    expect(error.fields).to.have.all.keys('backup');
    return error.fields!.backup;
  }

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'zip-reader-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('CheckedZip', () => {
    it('opens a sound archive and streams its files', async () => {
      const zip = await CheckedZip.open(await archive([{ name: 'a.txt', data: Buffer.from('alpha') }, { name: 'dir/', data: Buffer.alloc(0), mode: 0o040755 }, { name: 'dir/b.txt', data: Buffer.from('beta'.repeat(100)), deflate: true }]), LIMITS, ANY_NAME);
      try {
        expect(zip.files()).to.deep.equal([{ name: 'a.txt', size: 5 }, { name: 'dir/b.txt', size: 400 }]);
        expect(zip.has('dir/')).to.equal(false);
        expect(await zip.text('dir/b.txt')).to.equal('beta'.repeat(100));
        expect(await caughtAppError(zip.text('missing.txt'))).to.have.property('code', 'validation_failed');
      } finally {
        zip.close();
      }
    });

    for (const [label, name] of [
      ['a ../ segment', '../x.txt'],
      ['a ../ segment deeper down', 'a/b/../../../x.txt'],
      ['an absolute path', '/etc/x.txt'],
      ['a drive letter', 'C:/x.txt'],
      ['a backslash', 'a\\..\\x.txt'],
      ['a NUL character', 'a\u0000b.txt'],
      ['a fullwidth slash look-alike', 'a\uff0f..\uff0fx.txt'],
    ]) {
      it(`refuses a name with ${label}`, async () => {
        await refusal([{ name, data: Buffer.from('x') }]);
      });
    }

    it('refuses symlinks, devices and duplicate names', async () => {
      expect(await refusal([{ name: 'link', data: Buffer.from('/etc/passwd'), mode: 0o120777 }])).to.include('link');
      await refusal([{ name: 'fifo', data: Buffer.alloc(0), mode: 0o010644 }]);
      expect(await refusal([{ name: 'twice.txt', data: Buffer.from('1') }, { name: 'twice.txt', data: Buffer.from('2') }])).to.include('twice');
    });

    it('refuses more entries than allowed, before reading them', async () => {
      const entries = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: Buffer.from('x') }));
      expect(await refusal(entries, { maxFiles: 10, maxBytes: LIMITS.maxBytes })).to.include('11 entries');
      const zip = await CheckedZip.open(await archive(entries.slice(0, 10)), { maxFiles: 10, maxBytes: LIMITS.maxBytes }, ANY_NAME);
      zip.close();
    });

    it('refuses archives that expand past the size limit, whatever the ratio of one file', async () => {
      expect(await refusal([{ name: 'a', data: Buffer.alloc(600) }, { name: 'b', data: Buffer.alloc(600) }], { maxFiles: 10, maxBytes: 1000 })).to.include('expands to more than 1000 bytes');
      // Repetitive files deflate ~1000:1; the server's own archives hold such files when the repository does.
      const zip = await CheckedZip.open(await archive([{ name: 'zeros', data: Buffer.alloc(8 * 1024 * 1024), deflate: true }]), LIMITS, ANY_NAME);
      zip.close();
    });

    it('stops a file whose data is larger than its directory says', async () => {
      const zip = await CheckedZip.open(await archive([{ name: 'liar', data: Buffer.alloc(100_000, 0x61), deflate: true, declaredSize: 10 }]), LIMITS, ANY_NAME);
      try {
        const error = await caughtAppError(zip.text('liar'));
        expect(error.code).to.equal('validation_failed');
      } finally {
        zip.close();
      }
    });

    it('refuses names the caller does not allow, and files that are not ZIP archives', async () => {
      expect(await refusal([{ name: 'payload.sh', data: Buffer.from('x') }], LIMITS, (name) => name === 'manifest.json')).to.include('payload.sh');
      const file = path.join(dir, 'text.zip');
      await writeFile(file, 'not a zip');
      expect((await caughtAppError(CheckedZip.open(file, LIMITS, ANY_NAME))).fields).to.have.property('backup');
    });
  });

  describe('backup format', () => {
    it('names archives by UTC time', () => {
      expect(backupNameAt(Date.UTC(2024, 0, 2, 3, 4, 5))).to.equal('backup-20240102-030405.zip');
    });

    it('classifies the names an archive may hold', () => {
      expect(classifyArchiveName('manifest.json')).to.deep.equal({ kind: 'manifest' });
      expect(classifyArchiveName('content.jsonl')).to.deep.equal({ kind: 'content' });
      expect(classifyArchiveName('history/objects.bin')).to.deep.equal({ kind: 'history' });
      expect(classifyArchiveName('state/users.json')).to.deep.equal({ kind: 'state', key: 'users' });
      expect(classifyArchiveName('media/default/photo.png')).to.deep.equal({ kind: 'media', workspace: 'default', filename: 'photo.png' });
      for (const name of ['media/Default/photo.png', 'media/default/.hidden', 'media/default/a/b.png', 'state/other.json', 'content/x.md', 'manifest.json/']) {
        expect(classifyArchiveName(name), name).to.equal(undefined);
      }
    });

    it('maps content paths to parts', () => {
      expect(partOfContentPath('blog/workspace.yaml')).to.equal('content_types');
      expect(partOfContentPath('blog/types/posts.yaml')).to.equal('content_types');
      expect(partOfContentPath('blog/entries/posts/a.md')).to.equal('entries');
      expect(partOfContentPath('blog/trash/posts/abc/a.md')).to.equal('entries');
      expect(partOfContentPath('blog/media/photo.png.yaml')).to.equal('media');
      expect(partOfContentPath('README.md')).to.equal(undefined);
      expect(partOfContentPath('blog/other/x')).to.equal(undefined);
    });

    it('checks part lists', () => {
      expect(parseParts(['users', 'entries'])).to.deep.equal(['entries', 'users']);
      expect(() => parseParts(['entries', 'secrets'])).to.throw(AppError).with.property('fields').that.has.all.keys('parts');
      expect(() => parseParts([])).to.throw(AppError);
    });

    it('reads a manifest, ignoring counts that are not whole numbers', () => {
      const manifest = parseManifest(JSON.stringify({ format: 'git-cms-backup', format_version: 1, created_at: '2024-01-01T00:00:00Z', parts: ['entries'], head: 'a'.repeat(40), counts: { entries: 3, media: -1, users: 'many', extra: 5 } }));
      expect(manifest.counts).to.deep.equal({ content_types: 0, entries: 3, revisions: 0, media: 0, users: 0, roles: 0, tokens: 0, webhooks: 0 });
      expect(manifest.include_secrets).to.equal(false);
      for (const text of ['[]', '{"format":"zip"}', JSON.stringify({ format: 'git-cms-backup', format_version: 2 }), JSON.stringify({ format: 'git-cms-backup', format_version: 1, created_at: 'x', parts: [] }), JSON.stringify({ format: 'git-cms-backup', format_version: 1, created_at: '2024-01-01T00:00:00Z', parts: ['x'] }), JSON.stringify({ format: 'git-cms-backup', format_version: 1, created_at: '2024-01-01T00:00:00Z', parts: [], head: '../x' })]) {
        expect(() => parseManifest(text), text).to.throw(AppError);
      }
    });
  });
});
