// Localization over HTTP: locale variants in their own files, shared fields,
// fallbacks, and SPEC schema rule 5's five locale-setting changes.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fullAccessToken } from '../helpers/auth.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const ROOT = '/api/v1/workspaces/default';

describe('locales (public API)', () => {
  let server: TestServer;
  let token: string;

  beforeEach(async () => {
    server = await startTestServer();
    token = await fullAccessToken(server);
  });
  afterEach(() => server.close());

  const createType = (body: Record<string, unknown>) => server.request('POST', `${ROOT}/content-types`, { body: { name: 'pages', fields: { body: { type: 'markdown' }, price: { type: 'number' } }, ...body }, token });
  const updateType = (body: Record<string, unknown>) => server.request('PUT', `${ROOT}/content-types/pages`, { body, token });
  const write = (method: string, url: string, body: Record<string, unknown>) => server.request(method, `${ROOT}/content/pages${url}`, { body, token });
  const read = async (query = '') => (await server.request('GET', `${ROOT}/content/pages/about${query}`, { token })).body.data;
  const file = (name: string) => readFile(path.join(server.dataDir, 'content/default/entries/pages', name), 'utf8');

  it('stores each locale in its own file and shares slug, status and dates', async () => {
    expect((await createType({ locales: ['en', 'de'], default_locale: 'en' })).status).to.equal(201);
    const created = await write('POST', '', { title: 'About', slug: 'about', body: 'Hello', price: 5 });
    expect(created.status).to.equal(201);
    const german = await write('PATCH', '/about', { locale: 'de', title: 'Über uns', body: 'Hallo', status: 'published' });
    expect(german.status).to.equal(200);
    expect(german.body.data).to.include({ title: 'Über uns', status: 'published' });
    expect(await file('about.de.md')).to.contain('title: Über uns');
    expect(await file('about.md')).to.contain('status: published');

    const en = await read('?locale=en');
    expect(en).to.include({ title: 'About', status: 'published' });
    expect(en.data).to.deep.equal({ body: 'Hello', price: 5 });
    const de = await read('?locale=de');
    expect(de.title).to.equal('Über uns');
    expect(de.data).to.deep.equal({ body: 'Hallo', price: 5 });
    expect(de.published_at).to.equal(en.published_at);
    expect((await read()).title).to.equal('About');
    // A locale the type does not have is refused, naming those it has (the static-site issue, item 6).
    const unknown = await server.request('GET', `${ROOT}/content/pages/about?locale=fr`, { token });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.code).to.equal('invalid_request');
    expect(unknown.body.error.fields.locale).to.include('en, de');
    expect((await server.request('GET', `${ROOT}/content/pages?locale=fr`, { token })).status).to.equal(400);
  });

  it('says in each entry which locale was served and which translations exist, in lists too', async () => {
    await createType({ locales: ['en', 'de', 'fr'], default_locale: 'en' });
    await write('POST', '', { title: 'About', slug: 'about', status: 'published' });
    expect(await read('?locale=fr')).to.deep.include({ locale: 'en', translations: ['en'] });
    await write('PATCH', '/about', { locale: 'fr', title: 'À propos' });
    expect(await read('?locale=fr')).to.deep.include({ locale: 'fr', translations: ['en', 'fr'] });
    const list = await server.request('GET', `${ROOT}/content/pages?locale=de`);
    expect(list.body.data[0]).to.deep.include({ locale: 'en', translations: ['en', 'fr'] });
    const withoutLocale = await server.request('GET', `${ROOT}/content/pages`);
    expect(withoutLocale.body.data[0].translations).to.deep.equal(['en', 'fr']);
  });

  it('filters, sorts and searches on the resolved locale', async () => {
    await createType({ locales: ['en', 'de'], default_locale: 'en' });
    await write('POST', '', { title: 'About', slug: 'about', body: 'Hello', status: 'published' });
    await write('PATCH', '/about', { locale: 'de', title: 'Über uns', body: 'Hallo' });
    const search = await server.request('GET', `${ROOT}/content/pages?q=uber&locale=de`);
    expect(search.body.data.map((entry: { slug: string }) => entry.slug)).to.deep.equal(['about']);
    expect(search.body.meta.locale).to.equal('de');
    const english = await server.request('GET', `${ROOT}/content/pages?q=uber&locale=en`);
    expect(english.body.meta.total).to.equal(0);
    const filtered = await server.request('GET', `${ROOT}/content/pages?filter[title]=Über uns&locale=de`);
    expect(filtered.body.meta.total).to.equal(1);
  });

  it('rejects a write in a locale the type does not list', async () => {
    await createType({ locales: ['en'], default_locale: 'en' });
    const response = await write('POST', '', { title: 'X', locale: 'fr' });
    expect(response.status).to.equal(422);
    expect(response.body.error.fields).to.have.property('locale');
  });

  it('enabling localization copies root values into the new default locale', async () => {
    await createType({});
    await write('POST', '', { title: 'About', slug: 'about', body: 'Root body' });
    expect((await updateType({ locales: ['en', 'de'], default_locale: 'en' })).status).to.equal(200);
    expect(await file('about.md')).to.contain('Root body');
    expect(await file('about.de.md').catch(() => 'none'), 'the root file is the default locale\'s page').to.equal('none');
    expect(await file('about.en.md').catch(() => 'none')).to.equal('none');
    expect((await read('?locale=de')).data.body).to.equal('Root body');
  });

  it('adding a locale makes it available; entries fall back until saved in it', async () => {
    await createType({ locales: ['en'], default_locale: 'en' });
    await write('POST', '', { title: 'About', slug: 'about', body: 'Hello' });
    await updateType({ locales: ['en', 'fr'] });
    expect((await read('?locale=fr')).title).to.equal('About');
    expect((await write('PATCH', '/about', { locale: 'fr', title: 'À propos' })).status).to.equal(200);
    expect((await read('?locale=fr')).title).to.equal('À propos');
  });

  it('removing a locale hides it but keeps its file; adding it back restores it', async () => {
    await createType({ locales: ['en', 'de'], default_locale: 'en' });
    await write('POST', '', { title: 'About', slug: 'about' });
    await write('PATCH', '/about', { locale: 'de', title: 'Über uns' });
    await updateType({ locales: ['en'] });
    expect((await server.request('GET', `${ROOT}/content/pages/about?locale=de`, { token })).status, 'de is no longer one of its locales').to.equal(400);
    expect((await read()).title).to.equal('About');
    expect(await file('about.de.md')).to.contain('Über uns');
    await updateType({ locales: ['en', 'de'] });
    expect((await read('?locale=de')).title).to.equal('Über uns');
  });

  it('changing the default locale makes its translation the fallback', async () => {
    await createType({ locales: ['en', 'de', 'fr'], default_locale: 'en' });
    await write('POST', '', { title: 'About', slug: 'about' });
    await write('PATCH', '/about', { locale: 'de', title: 'Über uns' });
    await updateType({ default_locale: 'de' });
    expect((await read('?locale=fr')).title).to.equal('Über uns');
    expect((await read('?locale=en')).title).to.equal('About');
  });

  it('disabling localization keeps translations and serves root values', async () => {
    await createType({ locales: ['en', 'de'], default_locale: 'en' });
    await write('POST', '', { title: 'About', slug: 'about' });
    await write('PATCH', '/about', { locale: 'de', title: 'Über uns' });
    await updateType({ locales: [] });
    expect((await read('?locale=de')).title).to.equal('About');
    expect(await file('about.de.md')).to.contain('Über uns');
    await updateType({ locales: ['en', 'de'], default_locale: 'en' });
    expect((await read('?locale=de')).title).to.equal('Über uns');
  });
});
