// Reading `{ws}/workspace.yaml` on its own: unknown keys are named with the
// known key they likely misspell, and a misspelt `archived` in a file
// without one leaves the archived flag in doubt (docs/cli.md).
import { expect } from 'chai';
import { groupByWorkspace, readWorkspaceYaml, type Workspace } from '../../src/domain/model/workspace-file.ts';
import { editDistance, nearestWord } from '../../src/lib/edit-distance.ts';

const ACTIVE: Workspace = { slug: 'shop', label: 'Shop', archived: false, type_order: [], created_at: '', updated_at: '' };

describe('workspace.yaml keys', () => {
  it('counts letters added, removed, changed and two swapped', () => {
    expect(editDistance('archive', 'archived')).to.equal(1);
    expect(editDistance('arhcived', 'archived')).to.equal(1);
    expect(editDistance('achieved', 'archived')).to.equal(2);
    expect(editDistance('colour', 'archived')).to.be.above(2);
    expect(nearestWord('Archived', ['label', 'archived'], 2)).to.equal('archived');
    expect(nearestWord('lable', ['label', 'archived'], 2)).to.equal('label');
    expect(nearestWord('colour', ['label', 'archived'], 2)).to.equal(undefined);
  });

  it('names the key an unknown key likely misspells, and only then', () => {
    expect(readWorkspaceYaml('shop', 'label: Shop\narchived: false\nlable: Shop 2\ncolour: blue\n').problems).to.deep.equal([
      { field: 'lable', message: 'Unknown property "lable": did you mean "label"?' },
      { field: 'colour', message: 'Unknown property "colour".' },
    ]);
  });

  it('leaves archived in doubt for a misspelt archived in a file without one: the last good value, else archived', () => {
    const misspelt = 'label: Shop\narchive: false\n';
    expect(readWorkspaceYaml('shop', misspelt)).to.deep.include({ archivedInDoubt: true, problems: [{ field: 'archive', message: 'Unknown property "archive": did you mean "archived"?' }] });
    expect(readWorkspaceYaml('shop', misspelt).workspace.archived).to.equal(true);
    expect(readWorkspaceYaml('shop', misspelt, ACTIVE).workspace.archived).to.equal(false);
    expect(readWorkspaceYaml('shop', 'Archived: true\n').workspace.archived).to.equal(true);
  });

  it('lets archived decide when the file has it, and a file without any archived is active', () => {
    const both = readWorkspaceYaml('shop', 'archived: false\narchive: true\n');
    expect(both).to.deep.include({ archivedInDoubt: false, problems: [{ field: 'archive', message: 'Unknown property "archive": did you mean "archived"?' }] });
    expect(both.workspace.archived).to.equal(false);
    expect(readWorkspaceYaml('shop', 'label: Shop\ncolour: blue\n')).to.deep.include({ archivedInDoubt: false });
    expect(readWorkspaceYaml('shop', 'label: Shop\n').workspace.archived).to.equal(false);
  });

  it('is in doubt about archived for a bad value and for a file that is not a mapping', () => {
    for (const text of ['archived: maybe\n', '- a\n', 'label: [Shop\n']) {
      const read = readWorkspaceYaml('shop', text);
      expect(read.archivedInDoubt, text).to.equal(true);
      expect(read.workspace.archived, text).to.equal(true);
    }
  });
});

describe('groupByWorkspace', () => {
  it('groups changes by their top-level folder and leaves out files at the root of the repo', () => {
    const changes = [{ path: 'shop/workspace.yaml' }, { path: 'README.md' }, { path: 'blog/entries/posts/a.md' }, { path: 'shop/types/posts.yaml' }];
    expect([...groupByWorkspace(changes)]).to.deep.equal([
      ['shop', [{ path: 'shop/workspace.yaml' }, { path: 'shop/types/posts.yaml' }]],
      ['blog', [{ path: 'blog/entries/posts/a.md' }]],
    ]);
  });
});
