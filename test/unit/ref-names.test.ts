// git's ref-name rules (git check-ref-format), as the server applies them to
// `?ref=` and to release names, checked against the git CLI itself.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { refNameProblem } from '../../src/storage/git/ref-names.ts';

const execFileAsync = promisify(execFile);

async function gitAccepts(name: string): Promise<boolean> {
  try {
    await execFileAsync('git', ['check-ref-format', '--allow-onelevel', `refs/tags/${name}`]);
    return true;
  } catch {
    return false;
  }
}

const ACCEPTED = ['v1', 'v1.0.0', 'site/2026-11', 'release_1', 'a-b', 'x@y', 'Ünïcode', 'a.b/c.d', '@home'];
const REFUSED = ['', 'a..b', 'a b', 'tab\there', 'x~1', 'x^', 'a:b', 'a?', 'a*', 'a[b', 'a\\b', 'main.lock', 'a/b.lock/c', '.hidden', 'a/.b', 'a//b', 'a/', '/a', 'a.', 'x@{1}', 'bell\u0007', 'del\u007f'];

describe('ref names', () => {
  it('accepts what git accepts and refuses what git refuses', async () => {
    for (const name of [...ACCEPTED, ...REFUSED]) {
      expect(refNameProblem(name) === undefined, JSON.stringify(name)).to.equal(await gitAccepts(name));
    }
  });

  it('also refuses a leading "-" (read as an option), "@" alone (git reads it as HEAD) and names over 200 characters', () => {
    expect(refNameProblem('-rf')).to.be.a('string');
    expect(refNameProblem('@')).to.be.a('string');
    expect(refNameProblem('a'.repeat(201))).to.be.a('string');
    expect(refNameProblem('a'.repeat(200))).to.equal(undefined);
  });
});
