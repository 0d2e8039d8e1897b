import { expect } from 'chai';
import fc from 'fast-check';
import {
  FALLBACK_SLUG, IDENTIFIER_PATTERN, MAX_SLUG_LENGTH, isValidSlug, slugify, uniqueSlug,
} from '../../src/domain/model/slug.ts';
import { newEntryId } from '../../src/domain/entries/ids.ts';

describe('slugify', () => {
  it('lowercases and joins words with hyphens', async () => {
    expect(await slugify('Hello World!')).to.equal('hello-world');
    expect(await slugify('  Leading and trailing  ')).to.equal('leading-and-trailing');
    expect(await slugify('a--b__c')).to.equal('a-b-c');
  });

  it('transliterates accented and special letters', async () => {
    expect(await slugify('Crème Brûlée')).to.equal('creme-brulee');
    expect(await slugify('Ärger über Öl')).to.equal('aerger-ueber-oel');
    expect(await slugify('ĐĆŠŽ')).to.equal('dcsz');
    expect(await slugify('C++ & C#')).to.equal('c-and-c');
  });

  it('keeps camel-cased words together', async () => {
    expect(await slugify('JavaScript Tips')).to.equal('javascript-tips');
    expect(await slugify('iPhone 15')).to.equal('iphone-15');
  });

  it('folds full-width forms to ASCII', async () => {
    expect(await slugify('Ｆｕｌｌ Ｗｉｄｔｈ')).to.equal('full-width');
  });

  it('falls back to "entry" when nothing usable is left', async () => {
    expect(FALLBACK_SLUG).to.equal('entry');
    expect(await slugify('')).to.equal('entry');
    expect(await slugify('   ')).to.equal('entry');
    expect(await slugify('!!!')).to.equal('entry');
    expect(await slugify('日本語')).to.equal('entry');
  });

  it('cuts long slugs at a hyphen boundary', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const slug = await slugify(words);
    expect(slug.length).to.be.at.most(80);
    expect(slug).to.equal(Array.from({ length: 13 }, (_, i) => `word${i}`).join('-'));
    expect(isValidSlug(slug)).to.equal(true);
  });

  it('keeps a word that ends exactly at the limit', async () => {
    const text = `${'a'.repeat(79)}b cde`;
    expect(await slugify(text)).to.equal(`${'a'.repeat(79)}b`);
  });

  it('hard-cuts a single word longer than the limit', async () => {
    expect(await slugify('x'.repeat(200))).to.equal('x'.repeat(80));
  });

  it('always yields a valid slug for arbitrary input', async () => {
    for (const text of ['--', '_a_', 'A.B.C', 'ÆØÅ æøå', '💥 boom', 'tab\tnew\nline', 'über-über']) {
      expect(isValidSlug(await slugify(text)), text).to.equal(true);
    }
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
      const slug = await slugify(text);
      return isValidSlug(slug) && slug.length <= 80;
    }));
  });
});

describe('isValidSlug', () => {
  it('accepts lowercase hyphen-separated groups', () => {
    for (const s of ['a', 'hello', 'hello-world', 'post-2', '2024-01-01']) {
      expect(isValidSlug(s), s).to.equal(true);
    }
  });

  it('rejects other shapes', () => {
    for (const s of ['', 'Hello', 'hello_world', '-hello', 'hello-', 'a--b', 'a b', 'ä', 'a/b', '..']) {
      expect(isValidSlug(s), s).to.equal(false);
    }
  });

  it('limits the length to 120 characters', () => {
    expect(MAX_SLUG_LENGTH).to.equal(120);
    expect(isValidSlug('a'.repeat(120))).to.equal(true);
    expect(isValidSlug('a'.repeat(121))).to.equal(false);
  });
});

describe('IDENTIFIER_PATTERN', () => {
  it('accepts slugs and ids, including hand-written ones', () => {
    for (const s of ['hello-world', 'Hello_World', 'abc123', 'a'.repeat(128)]) {
      expect(IDENTIFIER_PATTERN.test(s), s).to.equal(true);
    }
  });

  it('rejects empty, long and unsafe identifiers', () => {
    for (const s of ['', 'a'.repeat(129), 'a.b', '../x', 'a b', 'a/b', 'é']) {
      expect(IDENTIFIER_PATTERN.test(s), s).to.equal(false);
    }
  });
});

describe('uniqueSlug', () => {
  it('returns the base when it is free', () => {
    expect(uniqueSlug('hello', () => false)).to.equal('hello');
  });

  it('appends -2, -3, … until a slug is free', () => {
    const taken = new Set(['hello', 'hello-2', 'hello-3']);
    expect(uniqueSlug('hello', (s) => taken.has(s))).to.equal('hello-4');
    expect(uniqueSlug('hello', (s) => s === 'hello')).to.equal('hello-2');
  });

  it('does not skip a free suffix after a gap', () => {
    const taken = new Set(['x', 'x-3']);
    expect(uniqueSlug('x', (s) => taken.has(s))).to.equal('x-2');
  });

  it('shortens a long base so the result stays valid', () => {
    const base = `${'a'.repeat(118)}-b`;
    const result = uniqueSlug(base, (s) => s === base);
    expect(result).to.equal(`${'a'.repeat(118)}-2`);
    expect(isValidSlug(result)).to.equal(true);
  });
});

describe('newEntryId', () => {
  it('is 16 lowercase alphanumeric characters', () => {
    for (let i = 0; i < 50; i += 1) {
      expect(newEntryId()).to.match(/^[0-9a-z]{16}$/);
    }
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newEntryId()));
    expect(ids.size).to.equal(1000);
  });
});
