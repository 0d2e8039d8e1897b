import { expect } from 'chai';
import type { FieldDefinition } from '../../src/domain/model/content-type.ts';
import {
  MAX_JSON_BYTES, MAX_TEXT_LENGTH, applyDefaults, isEmptyValue, validateFieldValue, validateFieldValues,
} from '../../src/domain/model/field-values.ts';

/** The normalized value, failing the test when the value is rejected. */
function accepted(value: unknown, field: FieldDefinition): unknown {
  const checked = validateFieldValue('f', value, field);
  if (!checked.ok) throw new Error(`Expected ${JSON.stringify(value)} to pass, got: ${checked.message}`);
  return checked.value;
}

/** The message, failing the test when the value is accepted. */
function rejected(value: unknown, field: FieldDefinition): string {
  const checked = validateFieldValue('f', value, field);
  if (checked.ok) throw new Error(`Expected ${JSON.stringify(value)} to fail, got ${JSON.stringify(checked.value)}`);
  return checked.message;
}

function expectRejectedAll(values: unknown[], field: FieldDefinition): void {
  for (const value of values) rejected(value, field);
}

describe('validateFieldValue', () => {
  describe('text', () => {
    const field: FieldDefinition = { type: 'text' };
    it('accepts strings, including empty ones', () => {
      expect(accepted('Hello', field)).to.equal('Hello');
      expect(accepted('', field)).to.equal('');
      expect(accepted('x'.repeat(MAX_TEXT_LENGTH), field)).to.have.length(MAX_TEXT_LENGTH);
    });
    it('rejects non-strings and over-long strings with a sentence naming the field', () => {
      expect(rejected(12, field)).to.equal('Field "f" must be a string.');
      expect(rejected('x'.repeat(MAX_TEXT_LENGTH + 1), field)).to.equal('Field "f" must be at most 10,000 characters long.');
      expectRejectedAll([true, ['a'], { a: 1 }], field);
    });
  });

  describe('textarea and markdown', () => {
    for (const type of ['textarea', 'markdown'] as const) {
      it(`${type} accepts long strings up to 1,000,000 characters`, () => {
        expect(accepted('# Title\n\nBody', { type })).to.equal('# Title\n\nBody');
        expect(accepted('x'.repeat(1_000_000), { type })).to.have.length(1_000_000);
        expect(rejected('x'.repeat(1_000_001), { type })).to.equal('Field "f" must be at most 1,000,000 characters long.');
        expectRejectedAll([1, false, []], { type });
      });
    }
  });

  describe('html', () => {
    const field: FieldDefinition = { type: 'html' };
    it('sanitizes the markup', () => {
      expect(accepted('<p onclick="x()">Hi<script>alert(1)</script></p>', field)).to.equal('<p>Hi</p>');
      expect(accepted('<a href="javascript:alert(1)">x</a>', field)).to.equal('<a>x</a>');
    });
    it('rejects non-strings', () => {
      expect(rejected(5, field)).to.equal('Field "f" must be a string.');
    });
  });

  describe('slug', () => {
    const field: FieldDefinition = { type: 'slug' };
    it('accepts lowercase hyphenated slugs', () => {
      expect(accepted('hello-world-2', field)).to.equal('hello-world-2');
    });
    it('rejects other strings', () => {
      expectRejectedAll(['Hello', 'a_b', '-a', 'a-', 'a--b', 'a b', 'a'.repeat(121), 3], field);
    });
    it('treats an empty string as cleared', () => {
      expect(accepted('', field)).to.equal(null);
    });
  });

  describe('color', () => {
    const field: FieldDefinition = { type: 'color' };
    it('accepts #rgb, #rrggbb and #rrggbbaa and lower-cases them', () => {
      expect(accepted('#FFF', field)).to.equal('#fff');
      expect(accepted('#Ff8800', field)).to.equal('#ff8800');
      expect(accepted('#ff880080', field)).to.equal('#ff880080');
    });
    it('rejects other forms', () => {
      expect(rejected('red', field)).to.equal('Field "f" must be a hex color such as #ff8800, #f80 or #ff880080.');
      expectRejectedAll(['fff', '#ffff', '#fffff', '#ggg', '#ff88008', 'rgb(0,0,0)', 0xfff], field);
    });
  });

  describe('number', () => {
    it('accepts finite JSON numbers', () => {
      expect(accepted(0, { type: 'number' })).to.equal(0);
      expect(accepted(-3.5, { type: 'number' })).to.equal(-3.5);
      expect(accepted(1e21, { type: 'number' })).to.equal(1e21);
    });
    it('rejects strings, booleans and non-finite numbers', () => {
      expect(rejected('12', { type: 'number' })).to.equal('Field "f" must be a finite number.');
      expectRejectedAll([true, Number.NaN, Number.POSITIVE_INFINITY, [1], {}], { type: 'number' });
    });
    it('applies min, max and step when set', () => {
      const field: FieldDefinition = { type: 'number', min: 1, max: 10, step: 0.5 };
      expect(accepted(1, field)).to.equal(1);
      expect(accepted(10, field)).to.equal(10);
      expect(accepted(2.5, field)).to.equal(2.5);
      expect(rejected(0.5, field)).to.equal('Field "f" must be at least 1.');
      expect(rejected(10.5, field)).to.equal('Field "f" must be at most 10.');
      expect(rejected(2.25, field)).to.equal('Field "f" must be 1 plus a multiple of 0.5.');
    });
    it('allows any number without step', () => {
      expect(accepted(1.2345, { type: 'number', min: 0 })).to.equal(1.2345);
    });
    it('treats an empty string as cleared', () => {
      expect(accepted('', { type: 'number' })).to.equal(null);
    });
  });

  describe('range', () => {
    const field: FieldDefinition = { type: 'range', min: 0, max: 1, step: 0.1 };
    it('accepts values on the step grid, tolerating float error', () => {
      expect(accepted(0, field)).to.equal(0);
      expect(accepted(0.3, field)).to.equal(0.3);
      expect(accepted(0.1 + 0.2, field)).to.equal(0.1 + 0.2);
      expect(accepted(1, field)).to.equal(1);
    });
    it('rejects values off the grid or out of bounds', () => {
      expect(rejected(0.15, field)).to.equal('Field "f" must be 0 plus a multiple of 0.1.');
      expect(rejected(-0.1, field)).to.equal('Field "f" must be at least 0.');
      expect(rejected(1.1, field)).to.equal('Field "f" must be at most 1.');
      expectRejectedAll(['0.5', true], field);
    });
    it('counts steps from min', () => {
      const odd: FieldDefinition = { type: 'range', min: 1, max: 9, step: 2 };
      expect(accepted(3, odd)).to.equal(3);
      expect(rejected(4, odd)).to.equal('Field "f" must be 1 plus a multiple of 2.');
    });
    it('uses a step of 1 when none is set', () => {
      const field1: FieldDefinition = { type: 'range', min: 0, max: 5 };
      expect(accepted(4, field1)).to.equal(4);
      expect(rejected(4.5, field1)).to.equal('Field "f" must be 0 plus a multiple of 1.');
    });
  });

  describe('boolean', () => {
    const field: FieldDefinition = { type: 'boolean' };
    it('accepts true and false only', () => {
      expect(accepted(true, field)).to.equal(true);
      expect(accepted(false, field)).to.equal(false);
      expect(rejected('true', field)).to.equal('Field "f" must be true or false.');
      expectRejectedAll([1, 0, '', 'false', []], field);
    });
  });

  describe('select', () => {
    const options = [{ value: 'red', label: 'Red' }, { value: 'blue', label: 'Blue' }];
    it('single: accepts an option value or null', () => {
      const field: FieldDefinition = { type: 'select', options };
      expect(accepted('red', field)).to.equal('red');
      expect(accepted(null, field)).to.equal(null);
      expect(accepted('', field)).to.equal(null);
      expect(rejected('green', field)).to.equal('Field "f" must be one of: "red", "blue".');
      expectRejectedAll(['Red', ['red'], 1], field);
    });
    it('multiple: accepts an array of option values, deduplicated in order', () => {
      const field: FieldDefinition = { type: 'select', options, multiple: true };
      expect(accepted(['blue', 'red', 'blue'], field)).to.deep.equal(['blue', 'red']);
      expect(accepted([], field)).to.deep.equal([]);
      expect(accepted(null, field)).to.deep.equal([]);
      expect(rejected('red', field)).to.equal('Field "f" must be an array of option values.');
      expect(rejected(['red', 'green'], field)).to.equal('Field "f" must be one of: "red", "blue".');
      expectRejectedAll([[1], [null]], field);
    });
  });

  describe('date', () => {
    const field: FieldDefinition = { type: 'date' };
    it('accepts valid calendar dates', () => {
      for (const value of ['2024-01-31', '2024-02-29', '2000-02-29', '0004-02-29', '1999-12-31']) {
        expect(accepted(value, field)).to.equal(value);
      }
    });
    it('rejects impossible dates and other shapes', () => {
      expect(rejected('2023-02-29', field)).to.equal('Field "f" must be a date written YYYY-MM-DD.');
      expectRejectedAll(['1900-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '2024-1-1', '2024-01-01T00:00:00Z',
        '20240101', 20240101], field);
    });
  });

  describe('datetime', () => {
    const field: FieldDefinition = { type: 'datetime' };
    it('normalizes to UTC toISOString form', () => {
      expect(accepted('2024-05-01T12:00:00Z', field)).to.equal('2024-05-01T12:00:00.000Z');
      expect(accepted('2024-05-01T12:00Z', field)).to.equal('2024-05-01T12:00:00.000Z');
      expect(accepted('2024-05-01T14:30:00+02:00', field)).to.equal('2024-05-01T12:30:00.000Z');
      expect(accepted('2024-12-31T23:30:00-01:00', field)).to.equal('2025-01-01T00:30:00.000Z');
      expect(accepted('2024-05-01t12:00:00.5z', field)).to.equal('2024-05-01T12:00:00.500Z');
      expect(accepted('2024-05-01T12:00:00.123456789Z', field)).to.equal('2024-05-01T12:00:00.123Z');
    });
    it('rejects values without a time zone or with invalid parts', () => {
      expect(rejected('2024-05-01T12:00:00', field))
        .to.equal('Field "f" must be an ISO 8601 date-time with a time zone, such as 2024-05-01T12:00:00Z.');
      expectRejectedAll(['2024-05-01', '2024-02-30T00:00:00Z', '2024-05-01T24:00:00Z', '2024-05-01T12:60:00Z',
        '2024-05-01T12:00:60Z', '2024-05-01T12:00:00+0200', '2024-05-01 12:00:00Z', 'yesterday', 1714564800000], field);
    });
  });

  describe('json', () => {
    const field: FieldDefinition = { type: 'json' };
    it('accepts every JSON value', () => {
      expect(accepted({ a: [1, { b: null }] }, field)).to.deep.equal({ a: [1, { b: null }] });
      expect(accepted([1, 'two'], field)).to.deep.equal([1, 'two']);
      expect(accepted('text', field)).to.equal('text');
      expect(accepted('', field)).to.equal('');
      expect(accepted(0, field)).to.equal(0);
      expect(accepted(false, field)).to.equal(false);
      expect(accepted(null, field)).to.equal(null);
    });
    it('returns a copy, not the given object', () => {
      const value = { a: { b: 1 } };
      const result = accepted(value, field);
      expect(result).to.deep.equal(value);
      expect(result).to.not.equal(value);
    });
    it('rejects values over 1 MB serialized', () => {
      expect(accepted('x'.repeat(MAX_JSON_BYTES - 2), field)).to.have.length(MAX_JSON_BYTES - 2);
      expect(rejected('x'.repeat(MAX_JSON_BYTES), field)).to.equal('Field "f" must be at most 1 MB as JSON.');
    });
    it('rejects undefined', () => {
      expect(rejected(undefined, field)).to.equal('Field "f" must have a value.');
    });
  });

  describe('media', () => {
    it('wraps a single filename in an array', () => {
      expect(accepted('photo.jpg', { type: 'media' })).to.deep.equal(['photo.jpg']);
      expect(accepted(['photo.jpg'], { type: 'media' })).to.deep.equal(['photo.jpg']);
      expect(accepted(null, { type: 'media' })).to.deep.equal([]);
      expect(accepted('', { type: 'media' })).to.deep.equal([]);
    });
    it('allows at most one file unless multiple', () => {
      expect(rejected(['a.jpg', 'b.jpg'], { type: 'media' })).to.equal('Field "f" must have at most 1 item.');
      expect(accepted(['a.jpg', 'b-2.png', 'a.jpg'], { type: 'media', multiple: true })).to.deep.equal(['a.jpg', 'b-2.png']);
    });
    it('rejects unsafe filenames', () => {
      const field: FieldDefinition = { type: 'media', multiple: true };
      expect(rejected(['../etc/passwd'], field))
        .to.equal('Field "f" must hold media filenames (lowercase letters, digits, ".", "_" and "-").');
      expectRejectedAll([['a..b.jpg'], ['.hidden'], ['Photo.JPG'], ['dir/a.jpg'], ['a b.jpg'], [`a${'b'.repeat(200)}`],
        [1], 5, { a: 1 }], field);
    });
  });

  describe('relation', () => {
    it('single: an id string or null', () => {
      const field: FieldDefinition = { type: 'relation', target: 'authors' };
      expect(accepted('abc123_-X', field)).to.equal('abc123_-X');
      expect(accepted(null, field)).to.equal(null);
      expect(rejected('a/b', field))
        .to.equal('Field "f" must hold entry ids (letters, digits, "_" and "-", up to 64 characters).');
      expectRejectedAll(['x'.repeat(65), ['abc'], 3], field);
    });
    it('multiple: an array of unique ids', () => {
      const field: FieldDefinition = { type: 'relation', target: 'tags', multiple: true };
      expect(accepted(['a', 'b', 'a'], field)).to.deep.equal(['a', 'b']);
      expect(accepted(null, field)).to.deep.equal([]);
      expect(rejected('a', field)).to.equal('Field "f" must be an array of entry ids.');
      expectRejectedAll([['a', 2], ['a b']], field);
    });
  });
});

describe('validateFieldValues', () => {
  const fields: Record<string, FieldDefinition> = {
    summary: { type: 'text', required: true },
    price: { type: 'number' },
    tags: { type: 'select', multiple: true, options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] },
    cover: { type: 'media', required: true },
  };

  it('returns normalized values and no errors for a valid write', () => {
    const result = validateFieldValues({ summary: 'Hi', price: 3, tags: ['b', 'b'], cover: 'x.png' }, fields, { partial: false });
    expect(result).to.deep.equal({ values: { summary: 'Hi', price: 3, tags: ['b'], cover: ['x.png'] }, errors: {} });
  });

  it('collects one message per bad field', () => {
    const result = validateFieldValues({ summary: 1, price: '3', tags: ['c'], cover: 'x.png' }, fields, { partial: false });
    expect(result.errors).to.deep.equal({
      summary: 'Field "summary" must be a string.',
      price: 'Field "price" must be a finite number.',
      tags: 'Field "tags" must be one of: "a", "b".',
    });
    expect(result.values).to.deep.equal({ cover: ['x.png'] });
  });

  it('reports keys that are not fields', () => {
    const result = validateFieldValues({ summary: 'x', cover: 'a.png', bogus: 1 }, fields, { partial: false });
    expect(result.errors).to.deep.equal({ bogus: '"bogus" is not a field of this content type.' });
  });

  it('reports a "__proto__" key instead of changing the prototype', () => {
    const values = JSON.parse('{"__proto__": {"polluted": true}, "summary": "x", "cover": "a.png"}') as Record<string, unknown>;
    const result = validateFieldValues(values, fields, { partial: false });
    expect(Object.keys(result.errors)).to.deep.equal(['__proto__']);
    expect(Object.getPrototypeOf(result.errors)).to.equal(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  describe('full validation (partial: false)', () => {
    it('requires every required field to be present and non-empty', () => {
      expect(validateFieldValues({}, fields, { partial: false }).errors).to.deep.equal({
        summary: 'Field "summary" is required.',
        cover: 'Field "cover" is required.',
      });
      expect(validateFieldValues({ summary: '', cover: [] }, fields, { partial: false }).errors).to.deep.equal({
        summary: 'Field "summary" is required.',
        cover: 'Field "cover" is required.',
      });
      expect(validateFieldValues({ summary: null, cover: null }, fields, { partial: false }).errors).to.deep.equal({
        summary: 'Field "summary" is required.',
        cover: 'Field "cover" is required.',
      });
    });

    it('treats html that sanitizes to nothing as missing', () => {
      const result = validateFieldValues({ body: '<script>x</script>' }, { body: { type: 'html', required: true } }, { partial: false });
      expect(result.errors).to.deep.equal({ body: 'Field "body" is required.' });
    });

    it('accepts false for a required boolean', () => {
      const result = validateFieldValues({ ok: false }, { ok: { type: 'boolean', required: true } }, { partial: false });
      expect(result).to.deep.equal({ values: { ok: false }, errors: {} });
    });

    it('does not require a field named like an Object.prototype member to be inherited', () => {
      const field: FieldDefinition = { type: 'text', required: true };
      const result = validateFieldValues({}, Object.fromEntries([['constructor', field]]), { partial: false });
      expect(result.errors).to.deep.equal({ constructor: 'Field "constructor" is required.' });
    });
  });

  describe('partial validation (partial: true)', () => {
    it('checks only the given keys', () => {
      expect(validateFieldValues({ price: 2 }, fields, { partial: true })).to.deep.equal({ values: { price: 2 }, errors: {} });
    });

    it('rejects clearing a required field', () => {
      expect(validateFieldValues({ summary: null, cover: [] }, fields, { partial: true }).errors).to.deep.equal({
        summary: 'Field "summary" is required.',
        cover: 'Field "cover" is required.',
      });
      expect(validateFieldValues({ summary: '' }, fields, { partial: true }).errors).to.deep.equal({
        summary: 'Field "summary" is required.',
      });
    });

    it('lets null clear an optional field', () => {
      expect(validateFieldValues({ price: null, tags: null }, fields, { partial: true }))
        .to.deep.equal({ values: { price: null, tags: [] }, errors: {} });
    });

    it('skips keys whose value is undefined', () => {
      expect(validateFieldValues({ summary: undefined }, fields, { partial: true })).to.deep.equal({ values: {}, errors: {} });
    });
  });
});

describe('applyDefaults', () => {
  const fields: Record<string, FieldDefinition> = {
    featured: { type: 'boolean', default: false },
    tags: { type: 'select', multiple: true, options: [{ value: 'a', label: 'A' }], default: ['a'] },
    meta: { type: 'json', default: { depth: { n: 1 } } },
    plain: { type: 'text' },
  };

  it('fills omitted fields that have a default', () => {
    expect(applyDefaults({ plain: 'x' }, fields)).to.deep.equal({
      plain: 'x', featured: false, tags: ['a'], meta: { depth: { n: 1 } },
    });
  });

  it('keeps given values, including null and false', () => {
    expect(applyDefaults({ featured: true, tags: null, meta: false }, fields)).to.deep.equal({
      featured: true, tags: null, meta: false,
    });
  });

  it('clones defaults so stored schemas are never shared or mutated', () => {
    const result = applyDefaults({}, fields);
    expect(result.meta).to.not.equal(fields.meta.default);
    (result.tags as string[]).push('b');
    expect(fields.tags.default).to.deep.equal(['a']);
  });

  it('does not modify the given object', () => {
    const values = { plain: 'x' };
    applyDefaults(values, fields);
    expect(values).to.deep.equal({ plain: 'x' });
  });

  it('fills a field named like an Object.prototype member', () => {
    const field: FieldDefinition = { type: 'text', default: 'd' };
    const result = applyDefaults({}, Object.fromEntries([['toString', field]]));
    expect(Object.hasOwn(result, 'toString')).to.equal(true);
    expect(result.toString).to.equal('d');
  });
});

describe('isEmptyValue', () => {
  it('treats undefined, null, "" and [] as empty', () => {
    for (const value of [undefined, null, '', []]) expect(isEmptyValue(value), JSON.stringify(value)).to.equal(true);
    for (const value of [0, false, ' ', ['a'], {}]) expect(isEmptyValue(value), JSON.stringify(value)).to.equal(false);
  });
});
