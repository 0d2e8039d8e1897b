import { expect } from 'chai';
import fc from 'fast-check';
import path from 'node:path';
import { AppError } from '../../src/errors/app-error.ts';
import { checkRepoPath, pathInRepo } from '../../src/storage/git/repo-paths.ts';
import { isSafeSegment, relativePathProblem, resolveInside } from '../../src/storage/safe-path.ts';

const ROOT = path.resolve('/srv/data/content');

function rejection(relative: string): AppError {
  try {
    resolveInside(ROOT, relative);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`resolveInside accepted ${JSON.stringify(relative)}`);
}

describe('safe-path', () => {
  describe('resolveInside', () => {
    it('resolves ordinary relative paths under the root', () => {
      expect(resolveInside(ROOT, 'blog/entries/posts/hello.md')).to.equal(path.join(ROOT, 'blog', 'entries', 'posts', 'hello.md'));
      expect(resolveInside(ROOT, 'hello.de.md')).to.equal(path.join(ROOT, 'hello.de.md'));
      expect(resolveInside(ROOT, '.gitattributes')).to.equal(path.join(ROOT, '.gitattributes'));
      expect(resolveInside(ROOT, 'ünïcödé/日本語.md')).to.equal(path.join(ROOT, 'ünïcödé', '日本語.md'));
      expect(resolveInside(ROOT, 'a..b/c...md')).to.equal(path.join(ROOT, 'a..b', 'c...md'));
    });

    it('returns the root itself for the empty path', () => {
      expect(resolveInside(ROOT, '')).to.equal(ROOT);
    });

    const hostile: [string, string][] = [
      ['absolute path', '/etc/passwd'],
      ['windows drive', 'C:/Windows/system32'],
      ['windows drive without slash', 'c:evil'],
      ['parent segment', '..'],
      ['parent segment in the middle', 'blog/../../etc/passwd'],
      ['parent segment at the end', 'blog/..'],
      ['current segment', './blog'],
      ['empty segment', 'blog//hello.md'],
      ['trailing slash', 'blog/'],
      ['backslash', 'blog\\hello.md'],
      ['backslash traversal', '..\\..\\windows'],
      ['NUL byte', 'hello.md\0.png'],
      ['control character', 'hel\u0007lo.md'],
      ['newline', 'hello\nworld.md'],
      ['decoded %2f traversal', decodeURIComponent('..%2f..%2fetc%2fpasswd')],
      ['decoded %2e%2e', decodeURIComponent('%2e%2e/secret')],
      ['decoded %5c', decodeURIComponent('..%5c..%5cboot.ini')],
      ['decoded %00', decodeURIComponent('hello.md%00.jpg')],
      ['double-decoded traversal', decodeURIComponent(decodeURIComponent('%252e%252e%252fetc'))],
      ['fullwidth dots', '\uff0e\uff0e/etc/passwd'],
      ['fullwidth solidus', 'blog\uff0fhello.md'],
      ['small reverse solidus', 'blog\ufe68hello.md'],
      ['two dot leader', '\u2025/etc'],
      ['one dot leader', 'blog/\u2024/x'],
      ['right-to-left override', 'evil\u202egnp.md'],
      ['zero-width space', 'he\u200bllo.md'],
      ['byte order mark', '\ufeffhello.md'],
      ['lone surrogate', 'bad\ud800.md'],
      ['segment longer than 255 bytes', `${'x'.repeat(256)}.md`],
    ];
    for (const [name, relative] of hostile) {
      it(`rejects ${name} with invalid_request`, () => {
        expect(rejection(relative).code).to.equal('invalid_request');
      });
    }

    it('keeps a literal (undecoded) %2f as part of a name, inside the root', () => {
      expect(resolveInside(ROOT, '..%2f..%2fetc')).to.equal(path.join(ROOT, '..%2f..%2fetc'));
    });

    it('either rejects a path or returns one inside the root, for any string', () => {
      fc.assert(
        fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.array(fc.constantFrom('..', '.', '/', '\\', 'a', '\0', '%2f', '\uff0e'), { maxLength: 8 }).map((parts) => parts.join(''))), (relative) => {
          let resolved: string;
          try {
            resolved = resolveInside(ROOT, relative);
          } catch (error) {
            return error instanceof AppError && error.code === 'invalid_request';
          }
          return resolved === ROOT || resolved.startsWith(ROOT + path.sep);
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe('relativePathProblem', () => {
    it('returns undefined for a safe path and a reason for an unsafe one', () => {
      expect(relativePathProblem('blog/entries/posts/hello.md')).to.equal(undefined);
      expect(relativePathProblem('../x')).to.equal('it has a "." or ".." segment');
      expect(relativePathProblem('/x')).to.equal('it is absolute');
    });

    // Such names skip the unicode checks, which they pass anyway; the rules for them are the few below.
    it('finds a problem in a path of ASCII letters, digits, `_`, `-` and `.` only for an empty, dot or over-long segment', () => {
      const segment = fc.oneof(fc.string({ unit: fc.constantFrom(...'aZ09_-.'.split('')), maxLength: 6 }), fc.constantFrom('.', '..', '...', 'x'.repeat(255), 'x'.repeat(256)));
      fc.assert(
        fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
          const expected = segments.map((part) => (part === '' ? 'it has an empty segment'
            : part === '.' || part === '..' ? 'it has a "." or ".." segment'
              : part.length > 255 ? 'a segment is longer than 255 bytes' : undefined)).find((problem) => problem !== undefined);
          const file = segments.join('/');
          expect(relativePathProblem(file), JSON.stringify(segments)).to.equal(file === '' ? 'it is empty' : file.startsWith('/') ? 'it is absolute' : expected);
        }),
        { numRuns: 1000 },
      );
    });
  });

  describe('checkRepoPath', () => {
    for (const file of ['.git/config', '.GIT/hooks/post-commit', 'a/.Git/x', '.git./x', '.git  /x', 'GIT~1/x', 'git~1', 'a/Git~1./b', '\uff0egit/x', '\uff47it~1/x', '.\uff27IT']) {
      it(`refuses ${JSON.stringify(file)}, inside .git`, () => {
        expect(() => checkRepoPath(file)).to.throw(AppError, /\.git folder/);
      });
    }

    // Plain ASCII paths take a shortcut; it must give the verdict of the full rules for every one of them.
    it('gives every ASCII path the verdict of the full rules', () => {
      const isGit = (segment: string) => ['.git', 'git~1'].includes(segment.normalize('NFKC').toLowerCase().replace(/[. ]+$/, ''));
      const segment = fc.oneof(fc.string({ unit: fc.constantFrom(...'aZ09_-.~ gGiItT'.split('')), maxLength: 7 }), fc.constantFrom('.git', 'GIT~1', '.Git.', 'git~1 ', 'x'.repeat(255), 'x'.repeat(256), '-'.repeat(255)));
      fc.assert(
        fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
          const file = segments.join('/');
          const expected = relativePathProblem(file) === undefined && !segments.some(isGit);
          let accepted = true;
          try {
            checkRepoPath(file);
          } catch (error) {
            expect(error).to.be.instanceOf(AppError);
            accepted = false;
          }
          expect(accepted, JSON.stringify(file)).to.equal(expected);
        }),
        { numRuns: 3000 },
      );
    });

    it('takes names that only look like .git, and joins a checked path as resolveInside does', () => {
      for (const file of ['git/x', 'gitlab/x', '.gitignore', '.github/workflows/ci.yml', 'a/.gitkeep', 'g', 'git~2/x', 'blog/entries/posts/hello.md', 'ünïcödé/日本語.md']) {
        expect(pathInRepo(ROOT, checkRepoPath(file)), file).to.equal(resolveInside(ROOT, file));
      }
    });
  });

  describe('isSafeSegment', () => {
    for (const name of ['hello', 'hello-world.md', 'users', 'photo 1.jpg', 'ünïcödé', '日本語', 'a'.repeat(200), 'a%2fb']) {
      it(`accepts ${JSON.stringify(name.slice(0, 20))}`, () => {
        expect(isSafeSegment(name)).to.equal(true);
      });
    }

    const unsafe: [string, string][] = [
      ['empty', ''],
      ['dot', '.'],
      ['dot dot', '..'],
      ['leading dot', '.env'],
      ['slash', 'a/b'],
      ['backslash', 'a\\b'],
      ['NUL', 'a\0b'],
      ['control character', 'a\u001fb'],
      ['201 characters', 'a'.repeat(201)],
      ['trailing dot', 'name.'],
      ['trailing space', 'name '],
      ['leading space', ' name'],
      ['fullwidth leading dot', '\uff0eenv'],
      ['fullwidth solidus', 'a\uff0fb'],
      ['one dot leader', '\u2024'],
      ['decoded %2f', decodeURIComponent('a%2fb')],
      ['decoded %2e%2e', decodeURIComponent('%2e%2e')],
      ['right-to-left override', 'txt.\u202eexe'],
      ['lone surrogate', '\udc00name'],
    ];
    for (const [label, name] of unsafe) {
      it(`rejects ${label}`, () => {
        expect(isSafeSegment(name)).to.equal(false);
      });
    }
  });
});
