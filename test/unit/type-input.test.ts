import { expect } from 'chai';
import type { ContentType } from '../../src/domain/model/content-type.ts';
import { checkTypeFile } from '../../src/domain/content/file-rules.ts';
import { defaultContentType, normalizeContentTypeInput } from '../../src/domain/model/type-input.ts';
import { thrownAppError } from '../helpers/errors.ts';

const typeExists = (name: string): boolean => name === 'authors';

function create(body: unknown): ContentType {
  return normalizeContentTypeInput(body, { mode: 'create', typeExists });
}

function update(body: unknown, existing: ContentType): ContentType {
  return normalizeContentTypeInput(body, { mode: 'update', existing, pathName: existing.name, typeExists });
}

function createErrors(body: unknown): Record<string, string> | undefined {
  const error = thrownAppError(() => create(body));
  expect(error.code).to.equal('validation_failed');
  return error.fields;
}

const existing: ContentType = {
  name: 'posts',
  label: 'Posts',
  icon: 'file',
  singleton: false,
  visibility: 'private',
  slug_field: 'slug',
  slug_source: 'headline',
  locales: ['en', 'de'],
  default_locale: 'de',
  fields: { headline: { type: 'text', required: true }, body: { type: 'markdown' } },
};

describe('normalizeContentTypeInput', () => {
  describe('create', () => {
    it('fills every SPEC field with its default', () => {
      expect(create({ name: 'posts' })).to.deep.equal({
        name: 'posts',
        label: 'posts',
        icon: '',
        singleton: false,
        visibility: 'public',
        slug_field: 'slug',
        slug_source: 'title',
        locales: [],
        default_locale: '',
        fields: {},
      });
      expect(defaultContentType('x')).to.deep.equal({ ...create({ name: 'x' }) });
    });

    it('keeps every given value', () => {
      const body = {
        name: 'page-2',
        label: 'Pages',
        icon: 'doc',
        singleton: true,
        visibility: 'private',
        slug_field: 'path',
        slug_source: 'headline',
        locales: ['en', 'fr_CA', 'pt-BR'],
        default_locale: 'fr_CA',
        fields: { headline: { type: 'text' }, path: { type: 'slug' } },
      };
      expect(create(body)).to.deep.equal(body);
    });

    it('uses the first locale as default locale when none is given', () => {
      expect(create({ name: 'p', locales: ['nl', 'en'] }).default_locale).to.equal('nl');
    });

    it('falls back to the name for an empty label', () => {
      expect(create({ name: 'p', label: '' }).label).to.equal('p');
    });

    it('requires a valid name', () => {
      const message = 'The name is required: 1 to 64 lowercase letters, digits or hyphens.';
      for (const name of [undefined, '', 'Posts', 'my_posts', 'a b', 'a/b', 'x'.repeat(65), 3]) {
        expect(createErrors(name === undefined ? {} : { name }), String(name)).to.deep.equal({ name: message });
      }
      expect(create({ name: 'x'.repeat(64) }).name).to.equal('x'.repeat(64));
    });

    it('lets relation fields target the new type itself', () => {
      const type = create({ name: 'pages', fields: { parent: { type: 'relation', target: 'pages' }, by: { type: 'relation', target: 'authors' } } });
      expect(type.fields.parent).to.deep.equal({ type: 'relation', target: 'pages' });
    });

    it('rejects a body that is not an object with invalid_request', () => {
      for (const body of [null, [], 'posts', 1]) {
        expect(thrownAppError(() => create(body)).code, JSON.stringify(body)).to.equal('invalid_request');
      }
    });
  });

  describe('validation', () => {
    it('rejects unknown top-level keys', () => {
      expect(createErrors({ name: 'p', order: 1, id: 'x' })).to.deep.equal({
        order: 'Unknown property "order".',
        id: 'Unknown property "id".',
      });
    });

    it('names the key an unknown key likely misspells, top-level and in a field definition, and only then', () => {
      expect(createErrors({ name: 'p', lable: 'P', Visiblity: 'public', colour: 'red', fields: { body: { type: 'text', requried: true, placeholder: 'x' } } })).to.deep.equal({
        lable: 'Unknown property "lable": did you mean "label"?',
        Visiblity: 'Unknown property "Visiblity": did you mean "visibility"?',
        colour: 'Unknown property "colour".',
        'fields.body.requried': 'Property "requried" is not allowed on a text field: did you mean "required"?',
        'fields.body.placeholder': 'Property "placeholder" is not allowed on a text field.',
      });
    });

    it('names a misspelt "type" key instead of the list of types, and keeps the list when no key looks like it', () => {
      const allTypes = 'text, textarea, markdown, html, number, range, boolean, select, date, datetime, slug, json, color, media, relation';
      expect(createErrors({ name: 'p', fields: { body: { tpye: 'text', label: 'Body' }, price: { Type: 'number' }, plain: { label: 'Plain', source: 'title' }, wrong: { type: 'txt', tpye: 'text' } } })).to.deep.equal({
        'fields.body.tpye': 'Unknown property "tpye": did you mean "type"?',
        'fields.price.Type': 'Unknown property "Type": did you mean "type"?',
        'fields.plain.type': `Field type must be one of: ${allTypes}.`,
        'fields.wrong.type': `Field type must be one of: ${allTypes}.`,
      });
      const checked = checkTypeFile('blog/types/posts.yaml', 'posts', 'fields:\n  body:\n    tpye: markdown\n', () => false);
      expect(checked).to.deep.equal({ ok: false, problems: [{ path: 'blog/types/posts.yaml', field: 'fields.body.tpye', message: 'Unknown property "tpye": did you mean "type"?' }] });
    });

    it('gives a type file the same hint, by path and field (cms check, pushes and the index share the rule)', () => {
      const checked = checkTypeFile('blog/types/posts.yaml', 'posts', 'lable: Posts\nfields:\n  body:\n    type: markdown\n    lable: Body\n', () => false);
      expect(checked).to.deep.equal({
        ok: false,
        problems: [
          { path: 'blog/types/posts.yaml', field: 'lable', message: 'Unknown property "lable": did you mean "label"?' },
          { path: 'blog/types/posts.yaml', field: 'fields.body.lable', message: 'Property "lable" is not allowed on a markdown field: did you mean "label"?' },
        ],
      });
    });

    it('reports a "__proto__" key', () => {
      expect(createErrors(JSON.parse('{"name": "p", "__proto__": {"x": 1}}'))).to.have.own.property('__proto__');
    });

    it('rejects wrong types, all in one error', () => {
      expect(createErrors({
        name: 'p', label: 5, icon: true, singleton: 'yes', visibility: 'hidden', slug_field: 1, slug_source: null, locales: 'en', default_locale: 2,
      })).to.deep.equal({
        label: '"label" must be a string of up to 200 characters.',
        icon: '"icon" must be a string of up to 100 characters.',
        singleton: '"singleton" must be true or false.',
        visibility: '"visibility" must be one of: public, private.',
        slug_field: '"slug_field" must be a string of up to 64 characters.',
        slug_source: '"slug_source" must be a string of up to 64 characters.',
        locales: '"locales" must be an array of at most 100 locale codes.',
        default_locale: '"default_locale" must be a string.',
      });
    });

    it('merges field definition errors with the others', () => {
      expect(createErrors({ name: 'p', visibility: 'x', fields: { price: { type: 'money' }, author: { type: 'relation', target: 'nobody' } } }))
        .to.deep.equal({
          visibility: '"visibility" must be one of: public, private.',
          'fields.price.type': 'Field type must be one of: text, textarea, markdown, html, number, range, boolean, select, '
            + 'date, datetime, slug, json, color, media, relation.',
          'fields.author.target': 'Target content type "nobody" does not exist.',
        });
      expect(createErrors({ name: 'p', fields: [] })).to.deep.equal({
        fields: 'Fields must be an object mapping field names to definitions.',
      });
    });

    it('checks locale codes and their uniqueness', () => {
      for (const locales of [['en', ''], ['en.US'], ['x'.repeat(36)], [1], ['a b']]) {
        expect(createErrors({ name: 'p', locales }), JSON.stringify(locales)).to.deep.equal({
          locales: 'Each locale must be 1 to 35 letters, digits, "_" or "-".',
        });
      }
      expect(createErrors({ name: 'p', locales: ['en', 'de', 'EN'] })).to.deep.equal({ locales: 'Locale "EN" appears more than once.' });
      expect(createErrors({ name: 'p', locales: Array.from({ length: 101 }, (_, i) => `l${i}`) })).to.deep.equal({
        locales: '"locales" must be an array of at most 100 locale codes.',
      });
    });

    it('requires default_locale to be one of the locales, or empty without locales', () => {
      expect(createErrors({ name: 'p', locales: ['en'], default_locale: 'de' })).to.deep.equal({
        default_locale: '"default_locale" must be one of the type\'s locales: en.',
      });
      expect(createErrors({ name: 'p', default_locale: 'en' })).to.deep.equal({
        default_locale: '"default_locale" must be empty when the type has no locales.',
      });
      expect(create({ name: 'p', default_locale: '' }).default_locale).to.equal('');
    });

    it('accepts slug_source "title" or a text-like field only', () => {
      expect(create({ name: 'p', slug_source: 'summary', fields: { summary: { type: 'textarea' } } }).slug_source).to.equal('summary');
      expect(createErrors({ name: 'p', slug_source: 'count', fields: { count: { type: 'number' } } })).to.deep.equal({
        slug_source: '"slug_source" must be "title" or the name of a text field of this type.',
      });
      expect(createErrors({ name: 'p', slug_source: 'missing' })).to.deep.equal({
        slug_source: '"slug_source" must be "title" or the name of a text field of this type.',
      });
    });

    it('accepts slug_field "slug" or a slug field only', () => {
      expect(createErrors({ name: 'p', slug_field: 'headline', fields: { headline: { type: 'text' } } })).to.deep.equal({
        slug_field: '"slug_field" must be "slug" or the name of a slug field of this type.',
      });
    });
  });

  describe('update', () => {
    it('keeps every omitted value (partial update)', () => {
      expect(update({}, existing)).to.deep.equal(existing);
      expect(update({ label: 'Articles' }, existing)).to.deep.equal({ ...existing, label: 'Articles' });
    });

    it('ignores a name in the body and uses the path name', () => {
      expect(update({ name: 'Renamed!', icon: 'x' }, existing).name).to.equal('posts');
      const renamed = normalizeContentTypeInput({}, { mode: 'update', existing, pathName: 'articles', typeExists });
      expect(renamed.name).to.equal('articles');
    });

    it('replaces fields as a whole when given', () => {
      const result = update({ fields: { headline: { type: 'text' }, tags: { type: 'json' } } }, existing);
      expect(result.fields).to.deep.equal({ headline: { type: 'text' }, tags: { type: 'json' } });
      expect(result.slug_source).to.equal('headline');
    });

    it('resets a kept slug_source whose field was removed', () => {
      expect(update({ fields: { body: { type: 'markdown' } } }, existing).slug_source).to.equal('title');
    });

    it('rejects an explicit slug_source that the new fields do not have', () => {
      const error = thrownAppError(() => update({ slug_source: 'headline', fields: { body: { type: 'markdown' } } }, existing));
      expect(error.code).to.equal('validation_failed');
      expect(error.fields).to.deep.equal({ slug_source: '"slug_source" must be "title" or the name of a text field of this type.' });
    });

    it('keeps the default locale while it is still listed, else takes the first locale', () => {
      expect(update({ locales: ['fr', 'de'] }, existing).default_locale).to.equal('de');
      expect(update({ locales: ['fr', 'it'] }, existing).default_locale).to.equal('fr');
      expect(update({ locales: [] }, existing).default_locale).to.equal('');
      expect(update({ default_locale: 'en' }, existing).default_locale).to.equal('en');
    });

    it('validates a new default_locale against the kept locales', () => {
      const error = thrownAppError(() => update({ default_locale: 'fr' }, existing));
      expect(error.fields).to.deep.equal({ default_locale: '"default_locale" must be one of the type\'s locales: en, de.' });
    });

    it('lets relation fields target the type being updated', () => {
      expect(update({ fields: { related: { type: 'relation', target: 'posts', multiple: true } } }, existing).fields.related)
        .to.deep.equal({ type: 'relation', multiple: true, target: 'posts' });
    });

    it('still rejects unknown keys', () => {
      expect(thrownAppError(() => update({ colour: 'red' }, existing)).fields).to.deep.equal({ colour: 'Unknown property "colour".' });
    });
  });
});
