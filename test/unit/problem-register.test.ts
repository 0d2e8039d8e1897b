// The problems register on its own: what it lists, and which files a re-read
// or a server write makes it forget.
import { expect } from 'chai';
import { ProblemRegister } from '../../src/domain/content/problem-register.ts';

const NOW = Date.parse('2024-05-01T00:00:00.000Z');

// Fixtures write a problem as `field: message` (a field has no spaces) or a plain message.
function registerWith(...reports: [string, string][]): ProblemRegister {
  const register = new ProblemRegister(() => NOW);
  const report = register.reporter();
  for (const [path, text] of reports) {
    const [, field, message] = /^([\w.-]+): (.+)$/.exec(text) ?? [undefined, undefined, text];
    report({ workspace: path.split('/')[0], path, message, ...(field === undefined ? {} : { field }) });
  }
  return register;
}

const paths = (register: ProblemRegister, workspace?: string) => register.list(workspace).map((problem) => problem.path);

describe('problems register', () => {
  it('lists by path, once per problem, with the field to blame when there is one', () => {
    const register = registerWith(
      ['blog/types/posts.yaml', 'fields.body.type: Field type must be one of: text, markdown.'],
      ['blog/entries/posts/a.md', 'rating: Must be a number.'],
      ['blog/entries/posts/a.md', 'rating: Must be a number.'],
      ['blog/entries/posts/b.md', 'The file name is not an entry file name: lowercase letters, digits and hyphens.'],
    );
    expect(register.list()).to.deep.equal([
      { workspace: 'blog', path: 'blog/entries/posts/a.md', field: 'rating', message: 'Must be a number.', since: new Date(NOW).toISOString() },
      { workspace: 'blog', path: 'blog/entries/posts/b.md', message: 'The file name is not an entry file name: lowercase letters, digits and hyphens.', since: new Date(NOW).toISOString() },
      { workspace: 'blog', path: 'blog/types/posts.yaml', field: 'fields.body.type', message: 'Field type must be one of: text, markdown.', since: new Date(NOW).toISOString() },
    ]);
  });

  it('forgets the changed files and the other files of their entries, in the workspace only', () => {
    const register = registerWith(
      ['blog/entries/posts/hello.de.md', 'A translation needs its entry file hello.md beside it.'],
      ['blog/entries/posts/other.md', 'title: An entry needs a title.'],
      ['blog/entries/pages/hello.md', 'title: An entry needs a title.'],
      ['blog/media/logo.png.yaml', 'Not a mapping.'],
      ['docs/entries/posts/hello.md', 'title: An entry needs a title.'],
    );
    register.forgetChanged('blog', ['blog/entries/posts/hello.md', 'blog/media/logo.png.yaml']);
    expect(paths(register)).to.deep.equal(['blog/entries/pages/hello.md', 'blog/entries/posts/other.md', 'docs/entries/posts/hello.md']);
    register.forgetChanged('blog', ['blog/types/posts.yaml'], { wholeWorkspace: true });
    expect(paths(register)).to.deep.equal(['docs/entries/posts/hello.md']);
  });

  it('forgets what the server writes, and a whole workspace that went away', () => {
    const register = registerWith(['blog/types/posts.yaml', 'Not YAML.'], ['blog/entries/posts/a.md', 'Not YAML.'], ['docs/entries/posts/a.md', 'Not YAML.']);
    register.forgetWritten(['blog/types/posts.yaml']);
    expect(paths(register, 'blog')).to.deep.equal(['blog/entries/posts/a.md']);
    register.forgetWorkspace('blog');
    expect(paths(register)).to.deep.equal(['docs/entries/posts/a.md']);
  });

  it('keeps the since of a problem that a re-read finds again, and dates a problem that was fixed and came back anew', () => {
    let now = NOW;
    const register = new ProblemRegister(() => now);
    const report = register.reporter();
    const colour = { workspace: 'blog', path: 'blog/workspace.yaml', field: 'colour', message: 'Unknown property "colour".' };
    const since = () => register.list('blog').map((problem) => [problem.field, problem.since]);
    const at = (time: number) => new Date(time).toISOString();
    report(colour);
    // A type written through the API: workspace.yaml is forgotten and judged again, still with the same problem, and now one more.
    now += 1000;
    register.forgetWritten(['blog/types/posts.yaml']);
    report(colour);
    report({ ...colour, field: 'label', message: 'Must be a non-empty text.' });
    expect(since()).to.deep.equal([['colour', at(NOW)], ['label', at(NOW + 1000)]]);
    // A commit from outside that leaves the file as wrong as it was.
    now += 1000;
    register.forgetChanged('blog', ['blog/workspace.yaml']);
    report(colour);
    expect(since()).to.deep.equal([['colour', at(NOW)]]);
    // Fixed, then broken the same way again.
    now += 1000;
    register.forgetChanged('blog', ['blog/workspace.yaml']);
    expect(since()).to.deep.equal([]);
    now += 1000;
    register.forgetChanged('blog', ['blog/workspace.yaml']);
    report(colour);
    expect(since()).to.deep.equal([['colour', at(NOW + 4000)]]);
    // A workspace that went away and came back has new problems.
    now += 1000;
    register.forgetWorkspace('blog');
    register.forgetChanged('blog', [], { wholeWorkspace: true });
    report(colour);
    expect(since()).to.deep.equal([['colour', at(NOW + 5000)]]);
  });

  it('answers GET /problems only with problems.read in the workspace', () => {
    const register = registerWith(['blog/entries/posts/a.md', 'Not YAML.']);
    const token = (resources: string[]) => ({ kind: 'token' as const, id: 't1', name: 'ci', grants: [{ effect: 'allow' as const, actions: ['problems.read'], resources }] });
    expect(register.read(token(['*']), 'blog')).to.have.length(1);
    expect(register.read(token(['workspace:blog:problems:*']), 'blog')).to.have.length(1);
    expect(() => register.read(token(['workspace:docs:problems:*']), 'blog')).to.throw().with.property('code', 'forbidden');
    expect(() => register.read({ kind: 'anonymous' }, 'blog')).to.throw().with.property('code', 'unauthorized');
  });
});
