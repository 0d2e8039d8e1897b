// Grouping entry files by the slug their names give (a root file and its
// translations together), shared by the index and the changes feed.
import { expect } from 'chai';
import { groupBySlug } from '../../src/domain/model/entry-paths.ts';

describe('groupBySlug', () => {
  it('puts a root file and its translations together, in their order, and leaves out what is not an entry file', () => {
    const paths = ['shop/entries/posts/hello.de.md', 'shop/entries/posts/hello-world.md', 'shop/entries/posts/hello.md', 'shop/entries/posts/notes.txt', 'shop/entries/posts/Hello.md'];
    expect([...groupBySlug(paths, (path) => path)]).to.deep.equal([
      ['hello', ['shop/entries/posts/hello.de.md', 'shop/entries/posts/hello.md']],
      ['hello-world', ['shop/entries/posts/hello-world.md']],
    ]);
  });

  it('reads the path of each file with pathOf and keeps the files themselves', () => {
    const changes = [{ path: 'shop/entries/posts/a.md', change: 'added' }, { path: 'shop/entries/posts/a.fr.md', change: 'deleted' }];
    expect(groupBySlug(changes, ({ path }) => path).get('a')).to.deep.equal(changes);
  });
});
