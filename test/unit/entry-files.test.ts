import { expect } from 'chai';
import fc from 'fast-check';
import { withoutClearedValues, withoutEmptyValues } from '../../src/domain/model/entry-empty-values.ts';
import { EntryFileError, entryFromFiles, ownTranslationValues } from '../../src/domain/model/entry-from-files.ts';
import { entryToFiles } from '../../src/domain/model/entry-to-files.ts';
import { isoDate } from '../../src/domain/model/iso-date.ts';
import { parseFrontMatter } from '../../src/domain/model/front-matter.ts';
import type { StoredEntry } from '../../src/domain/model/entry.ts';
import { buildType } from './query-fixtures.ts';

const posts = buildType('posts', {
  body: { type: 'markdown' },
  tags: { type: 'select', multiple: true, options: [{ value: 'news', label: 'News' }, { value: 'tech', label: 'Tech' }] },
  cover: { type: 'media' },
  gallery: { type: 'media', multiple: true },
}, { locales: ['en', 'de'], default_locale: 'en' });

const NOW = Date.parse('2026-06-01T00:00:00.000Z');

function entryOf(overrides: Partial<StoredEntry> = {}): StoredEntry {
  const data = { body: 'Hello', tags: ['news'], cover: ['cover.png'], gallery: ['a.png', 'b.png'] };
  return {
    id: 'e1',
    slug: 'hello',
    type: 'posts',
    status: 'published',
    title: 'Hello',
    published_at: '2026-05-01T10:00:00.000Z',
    created_at: '2026-04-01T10:00:00.000Z',
    updated_at: '2026-05-02T10:00:00.000Z',
    author_id: 'u1',
    data,
    translations: { en: { title: 'Hello', data }, de: { title: 'Hallo', data: { body: 'Hallo Welt' } } },
    ...overrides,
  };
}

function pages(entry: StoredEntry, now = NOW) {
  const files = entryToFiles(entry, posts, {}, now);
  return Object.fromEntries([...files].map(([name, text]) => [name, parseFrontMatter(text)]));
}

function read(root: string, translations: Record<string, string> = {}) {
  const { extra: _extra, ...entry } = entryFromFiles({ slug: 'hello', root, translations }, posts);
  return entry;
}

describe('entry files (the layout site generators build from)', () => {
  it('keeps a `__proto__` key of a file as a value of its own, never as the prototype of the values', () => {
    const entry = read('---\ntitle: Hi\n__proto__:\n  tags: [tech]\n---\nBody\n', { de: '---\ntitle: Hallo\n__proto__:\n  tags: [news]\n---\nText\n' });
    for (const data of [entry.data, entry.translations.de.data]) {
      expect(Object.getPrototypeOf(data)).to.equal(Object.prototype);
      expect(Object.hasOwn(data, 'tags')).to.equal(false);
      expect(data.tags).to.equal(undefined);
    }
    expect(Object.hasOwn(entry.data, '__proto__')).to.equal(true);
    expect(Object.hasOwn(entry.translations.de.data, '__proto__')).to.equal(true);
  });

  it('writes one complete page per locale: the default locale in the root file, never a {slug}.{default}.md', () => {
    const files = pages(entryOf());
    expect(Object.keys(files)).to.deep.equal(['hello.md', 'hello.de.md']);
    for (const { attributes } of Object.values(files)) {
      expect(attributes).to.include({ id: 'e1', status: 'published', draft: false, date: '2026-05-01T10:00:00.000Z', publishDate: '2026-05-01T10:00:00.000Z', lastmod: '2026-05-02T10:00:00.000Z', created_at: '2026-04-01T10:00:00.000Z', author_id: 'u1' });
      expect(attributes.tags, 'shared and inherited values are in every page').to.deep.equal(['news']);
    }
    expect(files['hello.md'].attributes.title).to.equal('Hello');
    expect(files['hello.md'].body).to.equal('Hello');
    expect(files['hello.de.md'].attributes.title).to.equal('Hallo');
    expect(files['hello.de.md'].body).to.equal('Hallo Welt');
  });

  it('writes a single media field as one filename and a multiple one as a list', () => {
    const { attributes } = pages(entryOf())['hello.md'];
    expect(attributes.cover).to.equal('cover.png');
    expect(attributes.gallery).to.deep.equal(['a.png', 'b.png']);
  });

  it('marks an entry draft: true while it is not public, a scheduled one until its date has passed', () => {
    expect(pages(entryOf({ status: 'draft', published_at: null }))['hello.md'].attributes).to.include({ draft: true, date: '2026-04-01T10:00:00.000Z' });
    const scheduled = entryOf({ status: 'scheduled', published_at: '2026-07-01T00:00:00.000Z' });
    expect(pages(scheduled)['hello.md'].attributes).to.include({ draft: true, publishDate: '2026-07-01T00:00:00.000Z' });
    expect(pages(scheduled)['hello.de.md'].attributes.draft).to.equal(true);
    expect(pages(scheduled, Date.parse('2026-07-02T00:00:00.000Z'))['hello.md'].attributes.draft).to.equal(false);
  });

  it('reads back exactly what it wrote', () => {
    const entry = entryOf();
    const files = entryToFiles(entry, posts, {}, NOW);
    const back = read(files.get('hello.md') as string, { de: files.get('hello.de.md') as string });
    expect(back).to.deep.equal(entry);
  });

  it('reads a translation value equal to the default locale\'s as inherited, not its own', () => {
    const entry = read('---\ntitle: Hello\ntags: [news]\n---\nHello', { de: '---\ntitle: Hallo\ntags: [news]\n---\nHallo' });
    expect(entry.translations.de).to.deep.equal({ title: 'Hallo', data: { body: 'Hallo' } });
  });

  it('folds a {slug}.{default}.md of the earlier layout into the default locale', () => {
    const entry = read('---\ntitle: Old\n---\nold body', { en: '---\ntitle: Hello\n---\nnew body' });
    expect(entry.title).to.equal('Hello');
    expect(entry.data.body).to.equal('new body');
    expect(entry.translations.en).to.deep.equal({ title: 'Hello', data: entry.data });
  });

  describe('status and draft, read as the site generators read them', () => {
    const cases: [string, string][] = [
      ['', 'published'],
      ['draft: false', 'published'],
      ['draft: true', 'draft'],
      ['status: published', 'published'],
      ['status: published\ndraft: true', 'draft'],
      ['status: draft', 'draft'],
      ['status: draft\ndraft: false', 'published'],
      ['status: archived\ndraft: false', 'published'],
      ['status: protected\ndraft: true', 'protected'],
      ['status: scheduled\ndraft: true', 'scheduled'],
      ['status: scheduled\ndraft: false', 'scheduled'],
    ];
    for (const [keys, status] of cases) {
      it(`${keys === '' ? 'neither key' : keys.replace('\n', ', ')} → ${status}`, () => {
        expect(read(`---\ntitle: T\n${keys}\n---\n`).status).to.equal(status);
      });
    }

    it('refuses a draft that is not true or false', () => {
      expect(() => read('---\ntitle: T\ndraft: maybe\n---\n')).to.throw('The draft must be true or false.');
    });
  });

  // isoDate returns text in toISOString's form as it is; it must give what formatting the parsed time gives, for every text.
  it('reads every date as formatting its parsed time would, out-of-range days and hours included', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const isoShaped = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), two(13), two(32), two(25), two(60), two(61), fc.option(fc.integer({ min: 0, max: 999 })), fc.constantFrom('Z', 'z', '+01:00', ''))
      .map(([year, month, day, hour, minute, second, ms, zone]) => `${String(year).padStart(4, '0')}-${month}-${day}T${hour}:${minute}:${second}${ms === null ? '' : `.${String(ms).padStart(3, '0')}`}${zone}`);
    const formatted = (text: string) => {
      const time = Date.parse(text);
      return Number.isNaN(time) ? undefined : new Date(time).toISOString();
    };
    fc.assert(fc.property(fc.oneof(isoShaped, fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), fc.string()), (text) => {
      expect(isoDate(text), text).to.equal(formatted(text));
    }), { numRuns: 5000 });
    expect(isoDate('2025-02-30T10:00:00.000Z')).to.equal('2025-03-02T10:00:00.000Z');
    expect(isoDate('2025-01-01T24:00:00.000Z')).to.equal('2025-01-02T00:00:00.000Z');
    expect(isoDate('2024-05-01')).to.equal('2024-05-01T00:00:00.000Z');
    expect(isoDate('2025-05-05T16:18:30Z')).to.equal('2025-05-05T16:18:30.000Z');
    expect(isoDate('not a date')).to.equal(undefined);
  });

  it('takes dates from the site generators\' keys when the CMS keys are absent', () => {
    const entry = read('---\ntitle: T\ndate: 2024-01-02\nlastmod: 2024-02-03\n---\n');
    expect(entry).to.include({ status: 'published', published_at: '2024-01-02T00:00:00.000Z', created_at: '2024-01-02T00:00:00.000Z', updated_at: '2024-02-03T00:00:00.000Z' });
    const draft = read('---\ntitle: T\ndraft: true\ndate: 2024-01-02\n---\n');
    expect(draft.published_at, 'a draft is not published by its date').to.equal(null);
  });

  it('leaves a custom field named like a tool key to the field', () => {
    const events = buildType('events', { date: { type: 'date' } });
    const entry: StoredEntry = { ...entryOf({ type: 'events', translations: {} }), data: { date: '2027-03-04' } };
    const [text] = entryToFiles(entry, events, {}, NOW).values();
    expect(parseFrontMatter(text).attributes.date).to.equal('2027-03-04');
    const { extra: _extra, ...back } = entryFromFiles({ slug: 'hello', root: text, translations: {} }, events);
    expect(back.data).to.deep.equal({ date: '2027-03-04' });
  });

  it('names the translation file and key that disagree with the default page on a shared key', () => {
    const files = entryToFiles(entryOf(), posts, {}, NOW);
    const german = (files.get('hello.de.md') as string).replace('status: published', 'status: draft');
    try {
      read(files.get('hello.md') as string, { de: german });
      expect.fail('a disagreement must be refused');
    } catch (error) {
      expect(error).to.be.instanceOf(EntryFileError);
      expect(error).to.include({ file: 'hello.de.md', field: 'status' });
    }
  });

  describe('empty fields (docs/static-sites.md, "Empty fields")', () => {
    const events = buildType('events', {
      body: { type: 'markdown' },
      subtitle: { type: 'text' },
      cover: { type: 'media' },
      gallery: { type: 'media', multiple: true },
      tags: { type: 'select', multiple: true, options: [{ value: 'news', label: 'News' }] },
      kind: { type: 'select', options: [{ value: 'talk', label: 'Talk' }] },
      venue: { type: 'relation', target: 'venues' },
      day: { type: 'date' },
      seats: { type: 'number' },
      extra: { type: 'json' },
    }, { locales: ['en', 'de'], default_locale: 'en' });
    const ABSENT = Symbol('absent');
    // Each field's empty forms (null, [], '', or no key) and a value.
    const VALUES: Record<string, unknown[]> = {
      body: [ABSENT, null, '', 'Text'],
      subtitle: [ABSENT, null, '', 'Sub'],
      cover: [ABSENT, null, [], ['a.png']],
      gallery: [ABSENT, null, [], ['a.png', 'b.png']],
      tags: [ABSENT, null, [], ['news']],
      kind: [ABSENT, null, 'talk'],
      venue: [ABSENT, null, 'v1'],
      day: [ABSENT, null, '2026-01-02'],
      seats: [ABSENT, null, 0, 40],
      extra: [ABSENT, null, { a: 1 }],
    };
    const valuesArbitrary = fc.record(Object.fromEntries(Object.entries(VALUES).map(([name, options]) => [name, fc.constantFrom(...options)])))
      .map((drawn) => Object.fromEntries(Object.entries(drawn).filter(([, value]) => value !== ABSENT)));
    const eventOf = (root: Record<string, unknown>, de: Record<string, unknown>): StoredEntry => ({
      ...entryOf({ type: 'events' }),
      data: root,
      translations: { en: { title: 'Hello', data: root }, de: { title: 'Hallo', data: de } },
    });
    const fieldKeys = (attributes: Record<string, unknown>) => Object.keys(attributes).filter((key) => Object.hasOwn(events.fields, key));

    it('never writes null, nor an empty list in the default page, nor an empty single media field, whatever the entry holds', () => {
      fc.assert(fc.property(valuesArbitrary, valuesArbitrary, (root, de) => {
        const files = entryToFiles(eventOf(root, de), events, {}, NOW);
        for (const [file, text] of files) {
          const { attributes } = parseFrontMatter(text);
          for (const key of fieldKeys(attributes)) {
            const value = attributes[key];
            expect(value, `${file}: ${key}`).not.to.equal(null);
            if (key === 'cover') expect(value, `${file}: cover`).to.be.a('string');
            if (file === 'hello.md' && Array.isArray(value)) expect(value, `hello.md: ${key}`).not.to.be.empty;
          }
        }
      }));
    });

    it('reads back exactly the entry a write stores, cleared fields included', () => {
      fc.assert(fc.property(valuesArbitrary, valuesArbitrary, (written, writtenDe) => {
        // What entry-changes.ts stores for a write of these values.
        const root = withoutEmptyValues(written, events);
        const entry = eventOf(root, ownTranslationValues(withoutClearedValues(writtenDe, events), root));
        const files = entryToFiles(entry, events, {}, NOW);
        const { extra: _extra, ...back } = entryFromFiles({ slug: 'hello', root: files.get('hello.md') as string, translations: { de: files.get('hello.de.md') as string } }, events);
        expect(back).to.deep.equal(entry);
      }));
    });

    it('leaves keys that are not fields of the type as they are', () => {
      const text = entryToFiles(eventOf({ removed: null, old_list: [] }, {}), events, {}, NOW).get('hello.md') as string;
      expect(parseFrontMatter(text).attributes).to.include({ removed: null }).and.to.have.deep.property('old_list', []);
    });
  });
});
