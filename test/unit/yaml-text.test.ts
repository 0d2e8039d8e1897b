import { expect } from 'chai';
import YAML from 'yaml';
import { typeToYaml, typeYamlToInput } from '../../src/domain/model/type-files.ts';
import { readWorkspaceYaml } from '../../src/domain/model/workspace-file.ts';
import { readYaml } from '../../src/domain/model/yaml-text.ts';
import { billionLaughs } from '../helpers/hostile-yaml.ts';

// Type files, workspace.yaml and media metadata are read with js-yaml and written with `yaml` (yaml-text.ts): each must read back as `yaml` reads it.
describe('YAML files of the content repo', () => {
  const handWritten = [
    'label: Posts\nfields:\n  title:\n    type: text\n    required: true\n  tags:\n    type: select\n    multiple: true\n    options: [a, "b c"]\n',
    'label: "Quoted: yes"\ndate: 2024-05-01\ncount: 010\nflag: yes\nhex: 0x1F\nexp: 1e3\nnothing: ~\nempty:\nlist:\n  - 1_000\n  - 12:30\n',
    '# a comment\nlabel: >\n  folded\n  text\nnested:\n  - { a: 1, b: [x, y] }\n  - - deep\n',
    'anchor: &a { x: 1 }\nalias: *a\n',
  ];

  it('reads what hand-written and server-written files hold exactly as the yaml package does', () => {
    for (const text of handWritten) expect(readYaml(text), text).to.deep.equal(YAML.parse(text));
    const written = typeToYaml({ name: 'posts', label: 'Posts: "all"', fields: { body: { type: 'markdown', label: 'Body\nwith a break' } } } as never);
    expect(typeYamlToInput('posts', written)).to.deep.equal({ ...YAML.parse(written), name: 'posts' });
  });

  it('reports broken YAML with the yaml package\'s own message', () => {
    const broken = 'label: [unclosed\nfields: {}\n';
    const message = (() => {
      try {
        YAML.parse(broken);
      } catch (error) {
        return (error as Error).message.split('\n', 1)[0];
      }
      return 'parsed';
    })();
    expect(() => readYaml(broken)).to.throw(message);
    expect(readWorkspaceYaml('shop', broken).problems[0].message).to.include(message.replace(/:$/, ''));
  });

  it('refuses an alias bomb in a type file without expanding it', () => {
    expect(() => typeYamlToInput('posts', `label: Laughs\n${billionLaughs(9)}`)).to.throw(/YAML aliases/);
  });
});
