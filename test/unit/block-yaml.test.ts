import { expect } from 'chai';
import fc from 'fast-check';
import YAML from 'yaml';
import { readBlockYaml } from '../../src/domain/model/block-yaml.ts';
import { typeToYaml } from '../../src/domain/model/type-files.ts';
import { writeYaml } from '../../src/domain/model/yaml-text.ts';
import { readsAsYamlDoes } from '../helpers/yaml-reference.ts';

// The line reader must read whatever it takes exactly as YAML does (the `yaml` package, yaml-text.ts's reference) and leave the rest to js-yaml.
describe('the line reader of nested YAML files', () => {
  const agrees = (text: string) => readsAsYamlDoes(readBlockYaml, text);

  it('takes the type files and workspace files the server writes, so a start loads no js-yaml', () => {
    const type = {
      name: 'posts', label: 'Posts', icon: '', singleton: false, visibility: 'public', slug_field: 'slug', slug_source: 'title', locales: [], default_locale: '',
      fields: {
        content: { type: 'markdown', label: 'Content' },
        category: { type: 'select', options: [{ value: 'news', label: 'news' }, { value: 'tech', label: 'Tech: all' }] },
        tags: { type: 'select', multiple: true, options: [{ value: 'alpha', label: 'alpha' }] },
        views: { type: 'number', min: 0, required: false },
      },
    };
    const typeFile = typeToYaml(type as never);
    expect(readBlockYaml(typeFile), typeFile).to.deep.equal(YAML.parse(typeFile));
    const workspaceFile = writeYaml({ label: 'Default', archived: false, created_at: '2026-11-27T14:19:34.472Z', types: ['posts', 'pages'] });
    expect(readBlockYaml(workspaceFile), workspaceFile).to.deep.equal(YAML.parse(workspaceFile));
  });

  it('reads what the server writes as YAML reads it', () => {
    const chars = fc.constantFrom(...'aZ09 :#-_.,\'"\\/[]{}&*!|>%@`~?\tée\n\u0085\u2028\ufeff'.split(''));
    const text = fc.oneof(fc.string({ unit: chars, maxLength: 12 }), fc.string({ unit: fc.constantFrom(...'aZ09 :-_./+'.split('')), minLength: 1, maxLength: 12 }));
    const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.date({ noInvalidDate: true }).map((date) => date.toISOString()));
    const key = fc.constantFrom('label', 'type', 'options', 'value', 'null', 'a_b', 'x1', 'a-b', 'on');
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
    }));
    let taken = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 }), (document) => {
        if (agrees(writeYaml(document))) taken += 1;
      }),
      { numRuns: 3000 },
    );
    expect(taken).to.be.above(600);
  });

  it('reads hand-written lines as YAML reads them, or leaves them to js-yaml', () => {
    // Mostly lines the reader takes, so that many blocks nest; some of everything it must leave.
    const keys = fc.oneof({ arbitrary: fc.constantFrom('a', 'b', 'label'), weight: 6 }, fc.constantFrom('null', 'True', '__proto__', 'a-b', '1', 'a b', '"q"'));
    const values = fc.oneof(
      { arbitrary: fc.constantFrom('1', 'x', 'a b', '"q"', "'s'", '-5', '[a, b]', '[]', '{}', '~', '2024-01-01'), weight: 6 },
      fc.constantFrom('"a\\"b"', '- a', 'a: b', 'a:', 'a #c', '{a: 1}', '&x 1', '*x', '!t', '|', '>', '12:30'),
    );
    const indent = fc.oneof({ arbitrary: fc.constantFrom('', '  ', '    '), weight: 6 }, fc.constantFrom(' ', '      '));
    const line = fc.oneof(
      { arbitrary: fc.tuple(indent, keys, values).map(([spaces, key, value]) => `${spaces}${key}: ${value}`), weight: 3 },
      { arbitrary: fc.tuple(indent, keys).map(([spaces, key]) => `${spaces}${key}:`), weight: 3 },
      { arbitrary: fc.tuple(indent, values).map(([spaces, value]) => `${spaces}- ${value}`), weight: 2 },
      { arbitrary: fc.tuple(indent, keys, values).map(([spaces, key, value]) => `${spaces}- ${key}: ${value}`), weight: 2 },
      { arbitrary: fc.tuple(indent, keys).map(([spaces, key]) => `${spaces}- ${key}:`), weight: 1 },
      { arbitrary: fc.tuple(indent, values).map(([spaces, value]) => `${spaces}${value}`), weight: 1 },
      { arbitrary: fc.constantFrom('', '# comment', '---', 'a: 1 ', 'a:  1', '-', '  -', '- - a'), weight: 1 },
    );
    let taken = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        if (agrees(`${lines.join('\n')}\n`)) taken += 1;
      }),
      // A fixed seed, so the count of blocks the reader takes below cannot flake.
      { numRuns: 20000, seed: 14 },
    );
    expect(taken).to.be.above(300);
  });

  it('leaves comments, anchors, block scalars, flow mappings and odd indentation to js-yaml', () => {
    for (const text of [
      '# c\na: 1\n', 'a: 1 # c\n', 'a: &x 1\nb: *x\n', 'a: |\n  text\n', 'a: {b: 1}\n', 'a:\n    b: 1\n  c: 2\n', 'a: 1\na: 2\n',
      'a:\n  - b\n   - c\n', 'a: x\n  y\n', '  a: 1\n', '- a\n', 'a\n', 'a:\n- - b\n', 'a: "x\\ty"\n', 'a:\tb\n', 'a: 1\r\n',
    ]) {
      expect(readBlockYaml(text), JSON.stringify(text)).to.equal(undefined);
    }
  });
});
