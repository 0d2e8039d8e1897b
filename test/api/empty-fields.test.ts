// Empty optional fields in the files site generators build from
// (docs/static-sites.md, "Empty fields"): a field created empty or cleared
// through the API is a missing key in the committed markdown, never `null`
// (which Astro's `.optional()` schemas reject), and the API answers such an
// entry as it answers one that never had the value, also after a restart.
import { expect } from 'chai';
import { fullAccessToken } from '../helpers/auth.ts';
import { contentRepoOf, externalCommit, fileAt } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { parseFrontMatter } from '../../src/domain/model/front-matter.ts';
import { makePng, uploadMedia } from './media-fixtures.ts';

const ROOT = '/api/v1/workspaces/default';

const EVENTS = {
  name: 'events',
  fields: {
    body: { type: 'markdown' },
    subtitle: { type: 'text' },
    cover: { type: 'media' },
    gallery: { type: 'media', multiple: true },
    venue: { type: 'relation', target: 'venues' },
    partners: { type: 'relation', target: 'venues', multiple: true },
    day: { type: 'date' },
    starts: { type: 'datetime' },
    seats: { type: 'number' },
    kind: { type: 'select', options: ['talk', 'workshop'] },
    topics: { type: 'select', multiple: true, options: ['web', 'git'] },
    extra: { type: 'json' },
  },
};
const OPTIONAL_KEYS = ['cover', 'gallery', 'venue', 'partners', 'day', 'starts', 'seats', 'kind', 'topics', 'extra'];

describe('empty fields in the committed files', function () {
  this.timeout(60_000);
  let server: TestServer;
  let token: string;
  let venueId: string;
  let full: Record<string, unknown>;

  const send = async (method: string, url: string, body?: unknown) => {
    const response = await server.request(method, `${ROOT}${url}`, { body, token });
    expect(response.status, response.text).to.be.oneOf([200, 201]);
    return response.body.data;
  };
  const attributesOf = async (file: string) => parseFrontMatter(await fileAt(contentRepoOf(server.dataDir), `default/entries/${file}`)).attributes;
  // What the API answers for an entry that never had a value in any optional field (SPEC: lists, or null for single select and relation).
  const NEVER_SET = { cover: [], gallery: [], venue: null, partners: [], kind: null, topics: [] };

  before(async () => {
    server = await startTestServer();
    token = await fullAccessToken(server);
    await send('POST', '/content-types', { name: 'venues', fields: {} });
    await send('POST', '/content-types', EVENTS);
    await send('POST', '/content-types', { name: 'pages', locales: ['en', 'de'], default_locale: 'en', fields: { cover: { type: 'media' }, day: { type: 'date' } } });
    const uploaded = await uploadMedia(server, [{ filename: 'cover.png', bytes: await makePng(8, 8) }], { token });
    expect(uploaded.status, uploaded.text).to.equal(201);
    venueId = (await send('POST', '/content/venues', { title: 'Hall' })).id;
    full = {
      subtitle: 'Sub', cover: 'cover.png', gallery: ['cover.png'], venue: venueId, partners: [venueId], day: '2026-05-01',
      starts: '2026-05-01T10:00:00.000Z', seats: 40, kind: 'talk', topics: ['git'], extra: { a: 1 },
    };
  });
  after(() => server.close());

  it('writes no key for fields created with null, an empty string or an empty list, and answers them as never set', async () => {
    const created = await send('POST', '/content/events', {
      title: 'Empty', slug: 'empty', cover: null, gallery: [], venue: null, partners: [], day: '', starts: null, seats: null, kind: '', topics: [], extra: null,
    });
    const attributes = await attributesOf('events/empty.md');
    for (const key of OPTIONAL_KEYS) expect(attributes, key).not.to.have.property(key);
    expect(created.data).to.deep.equal(NEVER_SET);
    const untouched = await send('POST', '/content/events', { title: 'Untouched', slug: 'untouched' });
    expect(untouched.data).to.deep.equal(created.data);
  });

  it('drops the key of every field cleared by PATCH with null, and PUT without a field keeps it', async () => {
    const created = await send('POST', '/content/events', { title: 'Full', slug: 'full', ...full });
    expect(await attributesOf('events/full.md')).to.include({ cover: 'cover.png', day: '2026-05-01', seats: 40, kind: 'talk' });
    await send('PUT', `/content/events/${created.id}`, { title: 'Full, renamed' });
    expect(await attributesOf('events/full.md')).to.include({ cover: 'cover.png', seats: 40 });
    const cleared = await send('PATCH', `/content/events/${created.id}`, Object.fromEntries(OPTIONAL_KEYS.map((key) => [key, null])));
    const attributes = await attributesOf('events/full.md');
    for (const key of OPTIONAL_KEYS) expect(attributes, key).not.to.have.property(key);
    expect(attributes.subtitle).to.equal('Sub');
    expect(cleared.data).to.deep.equal({ subtitle: 'Sub', ...NEVER_SET });
  });

  it('drops the key of fields cleared with the empty values a form sends: "" and []', async () => {
    const created = await send('POST', '/content/events', { title: 'Form', slug: 'form', ...full });
    const cleared = await send('PUT', `/content/events/${created.id}`, { cover: [], gallery: [], partners: [], topics: [], day: '', starts: '', seats: '', kind: '', venue: '' });
    const attributes = await attributesOf('events/form.md');
    for (const key of OPTIONAL_KEYS.filter((key) => key !== 'extra')) expect(attributes, key).not.to.have.property(key);
    expect(cleared.data).to.deep.include(NEVER_SET);
  });

  it('keeps an emptied text as "", which it is in the API too, and clears the body with ""', async () => {
    const created = await send('POST', '/content/events', { title: 'Text', slug: 'text', subtitle: 'Sub', body: 'Words.' });
    const cleared = await send('PATCH', `/content/events/${created.id}`, { subtitle: '', body: '' });
    expect(cleared.data.subtitle).to.equal('');
    expect(cleared.data).not.to.have.property('body');
    expect((await attributesOf('events/text.md')).subtitle).to.equal('');
  });

  it('leaves a hand-written null untouched, answers it as never set, and drops it at the next save through the API', async () => {
    const repo = contentRepoOf(server.dataDir);
    await externalCommit(repo, { write: { 'default/entries/events/by-hand.md': '---\ntitle: By hand\ncover: null\nday: null\ntopics: []\n---\n' } }, 'Add an event by hand');
    const read = await pollUntil(() => server.request('GET', `${ROOT}/content/events/by-hand`, { token }), (response) => response.status === 200);
    expect(read.body.data.data).to.deep.equal(NEVER_SET);
    expect(await attributesOf('events/by-hand.md')).to.include({ cover: null, day: null });
    await send('PATCH', '/content/events/by-hand', { title: 'Saved' });
    const attributes = await attributesOf('events/by-hand.md');
    for (const key of ['cover', 'day', 'topics']) expect(attributes, key).not.to.have.property(key);
  });

  it('repeats the default locale\'s value in a translation file where the translation cleared its own', async () => {
    const created = await send('POST', '/content/pages', { title: 'About', slug: 'about', cover: 'cover.png', day: '2026-01-02' });
    await send('PATCH', `/content/pages/${created.id}`, { locale: 'de', title: 'Über', cover: null, day: null });
    expect(await attributesOf('pages/about.de.md')).to.include({ cover: 'cover.png', day: '2026-01-02' });
    const de = await send('GET', `/content/pages/${created.id}?locale=de`);
    const en = await send('GET', `/content/pages/${created.id}`);
    expect(de.data).to.deep.equal(en.data);
  });

  it('answers every entry the same after a restart', async () => {
    const answers = async () => Object.fromEntries((await send('GET', '/content/events') as { slug: string; data: unknown }[]).map((entry) => [entry.slug, entry.data]));
    const before = await answers();
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir: server.dataDir });
    expect(await answers()).to.deep.equal(before);
  });
});
