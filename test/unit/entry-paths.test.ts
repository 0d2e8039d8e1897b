// Reading entry file paths, and grouping entry files by the slug their names
// give (a root file and its translations together), shared by the index, the
// problems register, push checks and the changes feed.
import { expect } from 'chai';
import { groupBySlug, parseEntryPath } from '../../src/domain/model/entry-paths.ts';

describe('parseEntryPath', () => {
  it('splits a root file and a translation into workspace, type, file name, slug and locale', () => {
    expect(parseEntryPath('shop/entries/posts/hello-world.md')).to.deep.equal({ workspace: 'shop', type: 'posts', fileName: 'hello-world.md', file: { slug: 'hello-world' } });
    expect(parseEntryPath('shop/entries/posts/hello.de-CH.md')).to.deep.equal({ workspace: 'shop', type: 'posts', fileName: 'hello.de-CH.md', file: { slug: 'hello', locale: 'de-CH' } });
  });

  it('keeps the parts of a file in an entries folder whose name is no entry file name, without slug', () => {
    for (const name of ['notes.txt', 'Hello.md', '.md', 'a.b.c.md']) {
      expect(parseEntryPath(`shop/entries/posts/${name}`), name).to.deep.equal({ workspace: 'shop', type: 'posts', fileName: name, file: undefined });
    }
  });

  it('reads no other path: elsewhere, deeper, shallower or with an empty part', () => {
    for (const path of ['shop/types/posts.yaml', 'shop/trash/posts/abc/hello.md', 'shop/entries/posts/drafts/hello.md', 'shop/entries/hello.md', 'entries/posts/hello.md', 'shop/entries//hello.md', '/entries/posts/hello.md', 'shop/entries/posts/']) {
      expect(parseEntryPath(path), path).to.equal(undefined);
    }
  });
});

describe('groupBySlug', () => {
  it('puts a root file and its translations together, in their order, and leaves out what is not an entry file', () => {
    const paths = ['shop/entries/posts/drafts/hello.md', 'shop/entries/posts/hello.de.md', 'shop/entries/posts/hello-world.md', 'shop/entries/posts/hello.md', 'shop/entries/posts/notes.txt', 'shop/entries/posts/Hello.md'];
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
