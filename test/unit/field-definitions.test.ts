import { expect } from 'chai';
import { AppError } from '../../src/errors/app-error.ts';
import { FIELD_TYPES } from '../../src/domain/model/content-type.ts';
import { checkFieldDefinitions, normalizeFieldDefinitions } from '../../src/domain/model/field-definitions.ts';

const existingTypes = new Set(['authors', 'tags']);
const typeExists = (name: string): boolean => existingTypes.has(name);

function normalize(fields: unknown): ReturnType<typeof normalizeFieldDefinitions> {
  return normalizeFieldDefinitions(fields, typeExists, 'posts');
}

function errorsOf(fields: unknown): Record<string, string> {
  return checkFieldDefinitions(fields, typeExists, 'posts').errors;
}

describe('normalizeFieldDefinitions', () => {
  it('accepts a minimal definition of every field type', () => {
    const minimal: Record<string, Record<string, unknown>> = {
      select: { options: ['a'] }, relation: { target: 'authors' }, range: { min: 0, max: 10 },
    };
    for (const type of FIELD_TYPES) {
      const result = normalize({ f: { type, ...minimal[type] } });
      expect(result.f.type, type).to.equal(type);
    }
  });

  it('keeps given properties in stored form and drops unset ones', () => {
    const result = normalize({
      title_en: { type: 'text', label: 'Title', required: true, unique: true },
      body: { type: 'markdown' },
    });
    expect(result).to.deep.equal({
      title_en: { type: 'text', label: 'Title', required: true, unique: true },
      body: { type: 'markdown' },
    });
  });

  it('throws validation_failed with every problem keyed fields.<name>.<prop>', () => {
    try {
      normalize({ a: { type: 'nope' }, b: { type: 'text', required: 'yes' } });
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).to.be.instanceOf(AppError);
      const appError = error as AppError;
      expect(appError.code).to.equal('validation_failed');
      expect(appError.fields).to.deep.equal({
        'fields.a.type': 'Field type must be one of: text, textarea, markdown, html, number, range, boolean, select, '
          + 'date, datetime, slug, json, color, media, relation.',
        'fields.b.required': 'Property "required" must be true or false.',
      });
    }
  });

  it('returns an empty map for an empty object', () => {
    expect(normalize({})).to.deep.equal({});
  });

  it('rejects a fields value that is not an object', () => {
    for (const value of [null, [], 'text', 3]) {
      expect(errorsOf(value), JSON.stringify(value)).to.deep.equal({
        fields: 'Fields must be an object mapping field names to definitions.',
      });
    }
  });

  it('rejects more than 200 fields', () => {
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, { type: 'text' }]));
    expect(errorsOf(many)).to.deep.equal({ fields: 'A content type may define at most 200 fields.' });
  });

  describe('field names', () => {
    it('accepts identifiers up to 64 characters', () => {
      const names = ['a', '_private', 'camelCase', 'snake_case_2', `a${'b'.repeat(63)}`];
      const result = normalize(Object.fromEntries(names.map((n) => [n, { type: 'text' }])));
      expect(Object.keys(result)).to.deep.equal(names);
    });

    it('rejects other names', () => {
      for (const name of ['2start', 'has-hyphen', 'has space', 'dot.ted', '', 'é', `a${'b'.repeat(64)}`]) {
        const errors = errorsOf({ [name]: { type: 'text' } });
        expect(Object.keys(errors), name).to.deep.equal([`fields.${name}`]);
        expect(errors[`fields.${name}`]).to.match(/must start with a letter or "_"/);
      }
    });

    it('rejects system keys', () => {
      for (const name of ['id', 'slug', 'title', 'status', 'published_at', 'locale', 'data', 'draft']) {
        expect(errorsOf({ [name]: { type: 'text' } }), name).to.deep.equal({
          [`fields.${name}`]: `Field name "${name}" is reserved for entry system fields.`,
        });
      }
    });

    it('rejects names of object internals', () => {
      const fields = JSON.parse('{"__proto__": {"type": "text"}, "constructor": {"type": "text"}}') as unknown;
      expect(errorsOf(fields)).to.deep.equal({
        'fields.__proto__': 'Field name "__proto__" is reserved.',
        'fields.constructor': 'Field name "constructor" is reserved.',
      });
    });
  });

  describe('type and properties', () => {
    it('requires the definition to be an object with a known type', () => {
      expect(errorsOf({ a: 'text', b: {}, c: { type: 'TEXT' } })).to.have.all.keys('fields.a', 'fields.b.type', 'fields.c.type');
      expect(errorsOf({ a: 'text' })['fields.a']).to.equal('Field "a" must be an object with a "type".');
    });

    it('rejects properties that do not belong to the type', () => {
      expect(errorsOf({
        a: { type: 'text', options: ['x'] },
        b: { type: 'text', multiple: true },
        c: { type: 'media', target: 'authors' },
        d: { type: 'boolean', min: 0 },
        e: { type: 'text', placeholder: 'x' },
        f: { type: 'select', options: ['x'], source: 'title' },
      })).to.deep.equal({
        'fields.a.options': 'Property "options" is not allowed on a text field.',
        'fields.b.multiple': 'Property "multiple" is not allowed on a text field.',
        'fields.c.target': 'Property "target" is not allowed on a media field.',
        'fields.d.min': 'Property "min" is not allowed on a boolean field.',
        'fields.e.placeholder': 'Property "placeholder" is not allowed on a text field.',
        'fields.f.source': 'Property "source" is not allowed on a select field.',
      });
    });

    it('checks label, required, unique and multiple types', () => {
      expect(errorsOf({
        a: { type: 'text', label: 5 },
        b: { type: 'text', unique: 'no' },
        c: { type: 'media', multiple: 1 },
        d: { type: 'text', label: 'x'.repeat(201) },
      })).to.deep.equal({
        'fields.a.label': 'Property "label" must be a string of up to 200 characters.',
        'fields.b.unique': 'Property "unique" must be true or false.',
        'fields.c.multiple': 'Property "multiple" must be true or false.',
        'fields.d.label': 'Property "label" must be a string of up to 200 characters.',
      });
    });

    it('refuses unique on json, media, boolean and multiple fields', () => {
      expect(errorsOf({
        a: { type: 'json', unique: true },
        b: { type: 'media', unique: true },
        c: { type: 'boolean', unique: true },
        d: { type: 'select', options: ['x'], multiple: true, unique: true },
        e: { type: 'relation', target: 'tags', multiple: true, unique: true },
      })).to.deep.equal({
        'fields.a.unique': 'A json field cannot be unique.',
        'fields.b.unique': 'A media field cannot be unique.',
        'fields.c.unique': 'A boolean field cannot be unique.',
        'fields.d.unique': 'A multiple select field cannot be unique.',
        'fields.e.unique': 'A multiple relation field cannot be unique.',
      });
      expect(normalize({ a: { type: 'json', unique: false }, b: { type: 'select', options: ['x'], unique: true } }))
        .to.deep.equal({ a: { type: 'json', unique: false }, b: { type: 'select', unique: true, options: [{ value: 'x', label: 'x' }] } });
    });
  });

  describe('select options', () => {
    it('normalizes strings and objects to { value, label }', () => {
      expect(normalize({ c: { type: 'select', options: ['red', { value: 'blue', label: 'Blue' }, { value: 'green' }], multiple: true } }))
        .to.deep.equal({
          c: {
            type: 'select',
            multiple: true,
            options: [{ value: 'red', label: 'red' }, { value: 'blue', label: 'Blue' }, { value: 'green', label: 'green' }],
          },
        });
    });

    it('requires a non-empty array', () => {
      for (const options of [undefined, [], 'red', { red: 'Red' }]) {
        expect(errorsOf({ c: { type: 'select', options } }), JSON.stringify(options)).to.deep.equal({
          'fields.c.options': 'Options must be a non-empty array of at most 1000 strings or { value, label } objects.',
        });
      }
    });

    it('rejects malformed options', () => {
      for (const option of ['', 3, null, { label: 'x' }, { value: 1 }, { value: 'a', label: 2 }, { value: 'a', color: 'red' }, 'x'.repeat(201)]) {
        expect(Object.keys(errorsOf({ c: { type: 'select', options: [option] } })), JSON.stringify(option))
          .to.deep.equal(['fields.c.options']);
      }
    });

    it('rejects duplicate values', () => {
      expect(errorsOf({ c: { type: 'select', options: ['a', { value: 'a', label: 'A' }] } })).to.deep.equal({
        'fields.c.options': 'Option value "a" appears more than once.',
      });
    });
  });

  describe('relation target', () => {
    it('accepts an existing type or the type itself', () => {
      expect(normalize({ author: { type: 'relation', target: 'authors' }, related: { type: 'relation', target: 'posts', multiple: true } }))
        .to.deep.equal({
          author: { type: 'relation', target: 'authors' },
          related: { type: 'relation', multiple: true, target: 'posts' },
        });
    });

    it('rejects a missing or unknown target', () => {
      expect(errorsOf({ a: { type: 'relation' }, b: { type: 'relation', target: 'ghosts' }, c: { type: 'relation', target: 3 } }))
        .to.deep.equal({
          'fields.a.target': 'A relation field needs a "target" naming a content type.',
          'fields.b.target': 'Target content type "ghosts" does not exist.',
          'fields.c.target': 'A relation field needs a "target" naming a content type.',
        });
    });
  });

  describe('number and range bounds', () => {
    it('range needs min and max with min < max; step > 0 is optional', () => {
      expect(normalize({ r: { type: 'range', min: 0, max: 1, step: 0.1 } })).to.deep.equal({ r: { type: 'range', min: 0, max: 1, step: 0.1 } });
      expect(normalize({ r: { type: 'range', min: -5, max: 5 } })).to.deep.equal({ r: { type: 'range', min: -5, max: 5 } });
      expect(errorsOf({ r: { type: 'range' } })).to.deep.equal({
        'fields.r.min': 'A range field needs a numeric "min".',
        'fields.r.max': 'A range field needs a numeric "max".',
      });
      expect(errorsOf({ r: { type: 'range', min: 5, max: 5 } })).to.deep.equal({ 'fields.r.max': '"max" must be greater than "min".' });
      expect(errorsOf({ r: { type: 'range', min: 0, max: 5, step: 0 } })).to.deep.equal({ 'fields.r.step': '"step" must be greater than 0.' });
      expect(errorsOf({ r: { type: 'range', min: '0', max: 5 } })).to.deep.equal({
        'fields.r.min': 'Property "min" must be a finite number.',
      });
    });

    it('number takes optional bounds, equal bounds allowed', () => {
      expect(normalize({ n: { type: 'number' } })).to.deep.equal({ n: { type: 'number' } });
      expect(normalize({ n: { type: 'number', min: 1, max: 1 } })).to.deep.equal({ n: { type: 'number', min: 1, max: 1 } });
      expect(errorsOf({ n: { type: 'number', min: 2, max: 1 } })).to.deep.equal({ 'fields.n.max': '"max" must be greater than "min".' });
      expect(errorsOf({ n: { type: 'number', step: -1 } })).to.deep.equal({ 'fields.n.step': '"step" must be greater than 0.' });
    });
  });

  describe('slug source', () => {
    it('accepts "title" or a text-like field of the same type', () => {
      expect(normalize({ s: { type: 'slug', source: 'title' } })).to.deep.equal({ s: { type: 'slug', source: 'title' } });
      expect(normalize({ headline: { type: 'text' }, s: { type: 'slug', source: 'headline' } }).s)
        .to.deep.equal({ type: 'slug', source: 'headline' });
    });

    it('rejects unknown, non-text or self sources', () => {
      expect(errorsOf({
        n: { type: 'number' },
        a: { type: 'slug', source: 'missing' },
        b: { type: 'slug', source: 'n' },
        c: { type: 'slug', source: 'c' },
        d: { type: 'slug', source: 5 },
      })).to.deep.equal({
        'fields.a.source': 'Source "missing" must be "title" or the name of a text field of this type.',
        'fields.b.source': 'Source "n" must be "title" or the name of a text field of this type.',
        'fields.c.source': 'Source "c" must be "title" or the name of a text field of this type.',
        'fields.d.source': 'Property "source" must be a field name.',
      });
    });
  });

  describe('default', () => {
    it('stores the normalized default', () => {
      expect(normalize({
        color: { type: 'color', default: '#FFAA00' },
        when: { type: 'datetime', default: '2024-01-01T01:00:00+01:00' },
        cover: { type: 'media', default: 'a.png' },
        tags: { type: 'select', options: ['a', 'b'], multiple: true, default: ['b', 'b'] },
        on: { type: 'boolean', default: false },
        meta: { type: 'json', default: { a: [1] } },
      })).to.deep.equal({
        color: { type: 'color', default: '#ffaa00' },
        when: { type: 'datetime', default: '2024-01-01T00:00:00.000Z' },
        cover: { type: 'media', default: ['a.png'] },
        tags: { type: 'select', default: ['b'], options: [{ value: 'a', label: 'a' }, { value: 'b', label: 'b' }], multiple: true },
        on: { type: 'boolean', default: false },
        meta: { type: 'json', default: { a: [1] } },
      });
    });

    it('rejects a default that fails value validation', () => {
      expect(errorsOf({
        a: { type: 'number', min: 0, default: -1 },
        b: { type: 'select', options: ['x'], default: 'y' },
        c: { type: 'boolean', default: 'true' },
        d: { type: 'date', default: '2023-02-30' },
      })).to.deep.equal({
        'fields.a.default': 'The default is invalid: Field "a" must be at least 0.',
        'fields.b.default': 'The default is invalid: Field "b" must be one of: "x".',
        'fields.c.default': 'The default is invalid: Field "c" must be true or false.',
        'fields.d.default': 'The default is invalid: Field "d" must be a date written YYYY-MM-DD.',
      });
    });

    it('rejects an empty default on a required field', () => {
      expect(errorsOf({ a: { type: 'text', required: true, default: '' } })).to.deep.equal({
        'fields.a.default': 'The default of a required field cannot be empty.',
      });
    });

    it('is not checked against a definition that is itself invalid', () => {
      expect(errorsOf({ r: { type: 'range', min: 3, max: 1, default: 2 } })).to.deep.equal({
        'fields.r.max': '"max" must be greater than "min".',
      });
    });
  });
});
