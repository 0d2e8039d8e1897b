import { expect } from 'chai';
import { effectiveLocale, resolveEntry } from '../../src/domain/locales/resolve.ts';
import { PAGES, PRODUCTS, buildEntry, buildPages, buildProducts, buildType } from './query-fixtures.ts';

function page(id: string) {
  const entry = buildPages().find((e) => e.id === id);
  if (!entry) throw new Error(`no fixture ${id}`);
  return entry;
}

describe('locales: effectiveLocale', () => {
  it('returns undefined for a non-localized type', () => {
    expect(effectiveLocale(PRODUCTS, 'de')).to.equal(undefined);
  });

  it('returns a listed locale, else the default for unsupported, removed or omitted codes', () => {
    expect(effectiveLocale(PAGES, 'de')).to.equal('de');
    expect(effectiveLocale(PAGES, 'it')).to.equal('en');
    expect(effectiveLocale(PAGES, 'xx')).to.equal('en');
    expect(effectiveLocale(PAGES)).to.equal('en');
  });
});

describe('locales: resolveEntry', () => {
  it('uses the requested translation, falling back per value to the default locale and then to root', () => {
    const resolved = resolveEntry(page('g1'), PAGES, 'de');
    expect(resolved.title).to.equal('Hallo');
    expect(resolved.data).to.deep.equal({ body: 'de body', teaser: 'root teaser', weight: 5 });
  });

  it('uses the default-locale translation when the locale is omitted or unsupported', () => {
    const expected = { body: 'en body', teaser: 'root teaser', weight: 5 };
    expect(resolveEntry(page('g1'), PAGES).data).to.deep.equal(expected);
    expect(resolveEntry(page('g1'), PAGES, 'zz').title).to.equal('Hello');
    expect(resolveEntry(page('g1'), PAGES, 'zz').data).to.deep.equal(expected);
  });

  it('says which locale was served and which translations exist, for localized types only', () => {
    expect(resolveEntry(page('g1'), PAGES, 'de')).to.include({ locale: 'de' });
    expect(resolveEntry(page('g1'), PAGES, 'de').translations).to.deep.equal(['en', 'de', 'fr']);
    // g2 has only root values: German is served from the default locale, and only that one exists.
    expect(resolveEntry(page('g2'), PAGES, 'de')).to.include({ locale: 'en' });
    expect(resolveEntry(page('g2'), PAGES, 'de').translations).to.deep.equal(['en']);
    expect(resolveEntry(page('g1'), PAGES)).to.include({ locale: 'en' });
    const product = resolveEntry(buildProducts()[0], PRODUCTS, 'de');
    expect(product).to.not.have.any.keys('locale', 'translations');
  });

  it('falls back to the default title when a translation has an empty one, and to root without translations', () => {
    const stored = { ...page('g1'), translations: { ...page('g1').translations, fr: { title: '', data: { body: null } } } };
    expect(resolveEntry(stored, PAGES, 'fr').title).to.equal('Hello');
    expect(resolveEntry(stored, PAGES, 'fr').data.body).to.equal('en body');
    const g2 = resolveEntry(page('g2'), PAGES, 'de');
    expect(g2.title).to.equal('Only root');
    expect(g2.data).to.deep.equal({ body: 'only root body', weight: 2 });
  });

  it('never resolves a locale removed from the type, but keeps its data', () => {
    const stored = page('g3');
    const resolved = resolveEntry(stored, PAGES, 'it');
    expect(resolved.title).to.equal('Welcome');
    expect(resolved.data.body).to.equal('welcome body');
    expect(stored.translations.it.title).to.equal('Benvenuto');
  });

  it('resolves the re-added locale once it is listed again', () => {
    const withItalian = { ...PAGES, locales: ['en', 'de', 'fr', 'it'] };
    expect(resolveEntry(page('g3'), withItalian, 'it').title).to.equal('Benvenuto');
    expect(resolveEntry(page('g3'), withItalian, 'it').data).to.deep.equal({ body: 'corpo', weight: 30 });
  });

  it('uses a changed default locale as the fallback', () => {
    const germanDefault = { ...PAGES, default_locale: 'de' };
    const resolved = resolveEntry(page('g1'), germanDefault, 'fr');
    expect(resolved.title).to.equal('Bonjour');
    expect(resolved.data).to.deep.equal({ body: 'de body', teaser: 'root teaser', weight: 1 });
    expect(resolveEntry(page('g3'), germanDefault).title).to.equal('Willkommen');
    expect(resolveEntry(page('g3'), germanDefault).data).to.deep.equal({ body: 'root three body', teaser: 'Über uns', weight: 3 });
  });

  it('uses root values when localization is disabled', () => {
    const disabled = { ...PAGES, locales: [] };
    const resolved = resolveEntry(page('g1'), disabled, 'de');
    expect(resolved.title).to.equal('Root one');
    expect(resolved.data).to.deep.equal({ body: 'root body', teaser: 'root teaser', weight: 1 });
  });

  it('keeps the shared fields from the stored entry', () => {
    const stored = page('g1');
    const resolved = resolveEntry(stored, PAGES, 'de');
    expect(resolved).to.include({ id: 'g1', slug: 'g1', type: 'pages', status: 'published', created_at: stored.created_at });
  });

  it('returns only current schema fields, in schema order', () => {
    const type = buildType('t', { b: { type: 'text' }, a: { type: 'number' } });
    const stored = buildEntry('t', { id: 'e', title: 'E', data: { removed: 'x', a: 1, b: 'two' } });
    const resolved = resolveEntry(stored, type);
    expect(Object.keys(resolved.data)).to.deep.equal(['b', 'a']);
    expect(resolved.data).to.deep.equal({ b: 'two', a: 1 });
  });

  it('shapes absent and single values: select/relation null, multi and media arrays, others omitted', () => {
    const p45 = buildProducts().find((e) => e.id === 'p45');
    if (!p45) throw new Error('no p45');
    const data = resolveEntry(p45, PRODUCTS).data;
    expect(data.maker).to.equal(null);
    expect(data.related).to.deep.equal([]);
    expect(data.cover).to.deep.equal([]);
    expect(data.gallery).to.deep.equal([]);
    expect(data).to.not.have.property('price');
    expect(data).to.not.have.property('body');
  });

  it('wraps a single media filename in an array', () => {
    const p01 = buildProducts()[0];
    const data = resolveEntry(p01, PRODUCTS).data;
    expect(data.cover).to.deep.equal(['torch.jpg']);
    expect(data.gallery).to.deep.equal(['a.jpg', 'b.jpg']);
    expect(data.maker).to.equal('m1');
  });
});
