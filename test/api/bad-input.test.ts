// Bad input on the public API (issue 2, "Bad input"): every rejected request
// answers the error envelope with API.md's status and code, never leaks a
// path or a stack, and a rejected write leaves HEAD, `git status` and every
// file of the data root exactly as they were.
import { expect } from 'chai';
import { buildAdminServer, FULL_ACCESS, issueToken } from '../helpers/auth.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import type { RequestOptions, TestResponse, TestServer } from '../helpers/server.ts';
import { diffSnapshots, snapshotDataRoot } from '../helpers/snapshot.ts';

const ROOT = '/api/v1/workspaces/default';
const MAX_JSON_BYTES = 1024 * 1024;

const POST_FIELDS = {
  count: { type: 'number' },
  featured: { type: 'boolean' },
  category: { type: 'select', options: ['news', 'blog'] },
  day: { type: 'date' },
  tint: { type: 'color' },
  author: { type: 'relation', target: 'people' },
  body: { type: 'markdown' },
};

interface WriteRoute {
  method: 'POST' | 'PUT' | 'PATCH';
  url: string;
  /** A body the route accepts, used to build the oversized and wrong-content-type variants. */
  valid: Record<string, unknown>;
}

const ENTRY_WRITES: WriteRoute[] = [
  { method: 'POST', url: `${ROOT}/content/posts`, valid: { title: 'Fine' } },
  { method: 'PUT', url: `${ROOT}/content/posts/existing`, valid: { title: 'Fine' } },
  { method: 'PATCH', url: `${ROOT}/content/posts/existing`, valid: { title: 'Fine' } },
];
const TYPE_WRITES: WriteRoute[] = [
  { method: 'POST', url: `${ROOT}/content-types`, valid: { name: 'fine' } },
  { method: 'PUT', url: `${ROOT}/content-types/posts`, valid: { label: 'Fine' } },
];

const HOSTILE_NAMES = ['..', 'a/b', '../state', '%2f', '%2e%2e', 'a\u0000b', '\u0000', 'x'.repeat(300), 'Upper', 'with space', '.hidden'];
// Path segments as they go on the wire (sent through node:http, which does not normalize them).
const HOSTILE_SEGMENTS = ['..', '%2e%2e', '.%2e', 'a%2fb', '%2f', '..%2f..%2fstate', '%2e%2e%2f%2e%2e%2fstate', '%00', 'a%00b', 'x'.repeat(300), '%5c..%5cstate'];

describe('bad input (public API)', () => {
  let server: TestServer;
  let token: string;
  let readOnly: string;
  let personId: string;

  const send = (method: string, url: string, options: RequestOptions = {}) => server.request(method, url, { token, ...options });

  /** The error envelope with this status and code, JSON, with no path or stack in it. */
  const expectError = (response: TestResponse, status: number, code: string) => {
    expect(response.status, response.text).to.equal(status);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(Object.keys(response.body)).to.deep.equal(['error']);
    expect(response.body.error.code).to.equal(code);
    expect(response.body.error.message).to.be.a('string');
    expectNoLeak(response);
  };
  const expectNoLeak = (response: TestResponse) => {
    expect(response.text).to.not.include(server.dataDir);
    expect(response.text).to.not.include(process.cwd());
    expect(response.text).to.not.match(/\bat [^\s"]+ \(|\bat (?:file:|node:|\/)|\.[cm]?[jt]s:\d+:\d+/);
  };
  /** Sends a write and checks that the data root did not change at all. */
  const withoutWriting = async (request: () => Promise<TestResponse>): Promise<TestResponse> => {
    const before = await snapshotDataRoot(server.dataDir);
    const response = await request();
    const after = await snapshotDataRoot(server.dataDir);
    expect(diffSnapshots(before, after), `after ${response.status} ${response.text.slice(0, 300)}`).to.deep.equal([]);
    return response;
  };
  const rejected = async (request: () => Promise<TestResponse>, status: number, code: string): Promise<TestResponse> => {
    const response = await withoutWriting(request);
    expectError(response, status, code);
    return response;
  };

  before(async () => {
    const started = await buildAdminServer({ token: FULL_ACCESS });
    ({ server, token } = started);
    readOnly = await issueToken(server, started.admin, [{ effect: 'allow', actions: ['content.read', 'schema.read'], resources: ['*'] }], 'read only');
    for (const [name, fields] of [['people', {}], ['posts', POST_FIELDS]] as const) {
      const created = await send('POST', `${ROOT}/content-types`, { body: { name, fields } });
      expect(created.status, created.text).to.equal(201);
    }
    const person = await send('POST', `${ROOT}/content/people`, { body: { title: 'Ada', status: 'published' } });
    expect(person.status, person.text).to.equal(201);
    personId = person.body.data.id;
    const existing = await send('POST', `${ROOT}/content/posts`, { body: { title: 'Existing', slug: 'existing', status: 'published', author: personId } });
    expect(existing.status, existing.text).to.equal(201);
  });
  after(() => server.close());

  describe('bodies that are not a JSON object', () => {
    for (const route of [...ENTRY_WRITES, ...TYPE_WRITES]) {
      const label = `${route.method} ${route.url.slice(ROOT.length)}`;
      const raw = (rawBody: string, contentType = 'application/json') => () =>
        send(route.method, route.url, { rawBody, headers: { 'content-type': contentType } });

      it(`${label}: malformed JSON → 400 invalid_request`, async () => {
        await rejected(raw('{"title": "x",'), 400, 'invalid_request');
      });
      for (const [what, rawBody] of [['an array', '[{"title":"x"}]'], ['a string', '"hello"'], ['a number', '42'], ['null', 'null']]) {
        it(`${label}: ${what} → 400 invalid_request`, async () => {
          await rejected(raw(rawBody), 400, 'invalid_request');
        });
      }
      it(`${label}: text/plain → 415 unsupported_media_type`, async () => {
        await rejected(raw(JSON.stringify(route.valid), 'text/plain'), 415, 'unsupported_media_type');
      });
      it(`${label}: form-encoded → 415 unsupported_media_type`, async () => {
        await rejected(raw('title=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
      });
      it(`${label}: more than CMS_MAX_JSON_BYTES → 413 payload_too_large`, async () => {
        const padding = 'a'.repeat(MAX_JSON_BYTES + 1024);
        const padded = { ...route.valid, [route.url.includes('content-types') ? 'label' : 'body']: padding };
        await rejected(raw(JSON.stringify(padded)), 413, 'payload_too_large');
      });
    }
  });

  describe('entry values', () => {
    const wrongValues: Array<[string, string, unknown]> = [
      ['a number sent as a string', 'count', '5'],
      ['a boolean sent as "yes"', 'featured', 'yes'],
      ['a select value not in the options', 'category', 'sports'],
      ['an impossible date', 'day', '2024-02-30'],
      ['a date in words', 'day', 'yesterday'],
      ['a colour name', 'tint', 'red'],
      ['a five-digit colour', 'tint', '#12345'],
      ['a relation to a missing id', 'author', 'no-such-person'],
      ['a relation given as an object', 'author', { id: 'x' }],
      ['a markdown body that is not a string', 'body', ['a']],
      ['a title that is not a string', 'title', 42],
      ['an unknown status', 'status', 'live'],
      ['a published_at that is not a date', 'published_at', 'tomorrow'],
      ['an unknown key', 'colour', 'red'],
    ];
    for (const route of ENTRY_WRITES) {
      const label = `${route.method} ${route.url.slice(ROOT.length)}`;
      for (const [what, field, value] of wrongValues) {
        it(`${label}: ${what} → 422 with "${field}" in fields`, async () => {
          const response = await rejected(() => send(route.method, route.url, { body: { title: 'Valid', [field]: value } }), 422, 'validation_failed');
          expect(response.body.error.fields).to.have.property(field);
        });
      }
      it(`${label}: an unknown key inside data → 422 with the key in fields`, async () => {
        const response = await rejected(() => send(route.method, route.url, { body: { title: 'Valid', data: { nope: 1 } } }), 422, 'validation_failed');
        expect(response.body.error.fields).to.have.property('nope');
      });
      // The JSON parser refuses prototype-poisoning keys outright, before any field rules run.
      it(`${label}: a "__proto__" key → 400 invalid_request`, async () => {
        const rawBody = '{"title":"Valid","__proto__":{"polluted":true}}';
        await rejected(() => send(route.method, route.url, { rawBody, headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
        expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      });
      it(`${label}: data that is not an object → 422 with "data" in fields`, async () => {
        const response = await rejected(() => send(route.method, route.url, { body: { title: 'Valid', data: [1] } }), 422, 'validation_failed');
        expect(response.body.error.fields).to.have.property('data');
      });
      it(`${label}: one message per wrong field`, async () => {
        const body = { title: 'Valid', count: 'many', featured: 'yes', tint: 'red' };
        const response = await rejected(() => send(route.method, route.url, { body }), 422, 'validation_failed');
        expect(response.body.error.fields).to.include.all.keys('count', 'featured', 'tint');
      });
    }

    for (const [what, body] of [['an empty object', {}], ['a blank title', { title: '   ' }], ['fields but no title', { count: 1 }]] as const) {
      it(`POST /content/posts with ${what} → 422 with "title" in fields`, async () => {
        const response = await rejected(() => send('POST', `${ROOT}/content/posts`, { body }), 422, 'validation_failed');
        expect(response.body.error.fields).to.have.property('title');
      });
    }

    it('POST /content/posts without any body → 422 with "title" in fields', async () => {
      const response = await rejected(() => send('POST', `${ROOT}/content/posts`), 422, 'validation_failed');
      expect(response.body.error.fields).to.have.property('title');
    });
  });

  describe('hostile slugs and names in the body', () => {
    for (const slug of HOSTILE_NAMES) {
      const shown = JSON.stringify(slug.slice(0, 20));
      it(`POST /content/posts with slug ${shown} → 422 with "slug" in fields`, async () => {
        const response = await rejected(() => send('POST', `${ROOT}/content/posts`, { body: { title: 'Hostile', slug } }), 422, 'validation_failed');
        expect(response.body.error.fields).to.have.property('slug');
      });
      it(`PATCH /content/posts/existing with slug ${shown} → 422 with "slug" in fields`, async () => {
        const response = await rejected(() => send('PATCH', `${ROOT}/content/posts/existing`, { body: { slug } }), 422, 'validation_failed');
        expect(response.body.error.fields).to.have.property('slug');
      });
      it(`POST /content-types with name ${shown} → 422 with "name" in fields`, async () => {
        const response = await rejected(() => send('POST', `${ROOT}/content-types`, { body: { name: slug } }), 422, 'validation_failed');
        expect(response.body.error.fields).to.have.property('name');
      });
    }

    it('POST /content-types without a name → 422 with "name" in fields', async () => {
      const response = await rejected(() => send('POST', `${ROOT}/content-types`, { body: { label: 'Nameless' } }), 422, 'validation_failed');
      expect(response.body.error.fields).to.have.property('name');
    });

    const typeValues: Array<[string, string, unknown]> = [
      ['singleton as "yes"', 'singleton', 'yes'],
      ['an unknown visibility', 'visibility', 'secret'],
      ['fields as a string', 'fields', 'title'],
      ['locales as a string', 'locales', 'en'],
      ['an unknown key', 'colour', 'red'],
    ];
    for (const route of TYPE_WRITES) {
      for (const [what, key, value] of typeValues) {
        it(`${route.method} ${route.url.slice(ROOT.length)}: ${what} → 422 with "${key}" in fields`, async () => {
          const response = await rejected(() => send(route.method, route.url, { body: { ...route.valid, [key]: value } }), 422, 'validation_failed');
          expect(response.body.error.fields).to.have.property(key);
        });
      }
    }
  });

  describe('hostile names in the path', () => {
    const accepted = [404, 422];
    const checkHostile = async (method: string, rawPath: string, body?: unknown) => {
      const response = await withoutWriting(() => rawRequest(server.baseUrl, method, rawPath, { token, body }));
      expect(accepted, `${method} ${rawPath} → ${response.status} ${response.text.slice(0, 200)}`).to.include(response.status);
      expectError(response, response.status, response.status === 404 ? 'not_found' : 'validation_failed');
    };
    for (const segment of HOSTILE_SEGMENTS) {
      const shown = segment.length > 30 ? `${segment.slice(0, 12)}…(${segment.length})` : segment;
      it(`entry identifier "${shown}": GET, PUT, PATCH, DELETE → 404 or 422`, async () => {
        for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
          await checkHostile(method, `${ROOT}/content/posts/${segment}`, method === 'PUT' || method === 'PATCH' ? { title: 'Hostile' } : undefined);
        }
      });
      it(`type name "${shown}": list, create, get, update, delete → 404 or 422`, async () => {
        await checkHostile('GET', `${ROOT}/content/${segment}`);
        await checkHostile('POST', `${ROOT}/content/${segment}`, { title: 'Hostile' });
        await checkHostile('GET', `${ROOT}/content-types/${segment}`);
        await checkHostile('PUT', `${ROOT}/content-types/${segment}`, { label: 'Hostile' });
        await checkHostile('DELETE', `${ROOT}/content-types/${segment}`);
      });
      it(`workspace "${shown}": create an entry → 404 or 422`, async () => {
        await checkHostile('POST', `/api/v1/workspaces/${segment}/content/posts`, { title: 'Hostile' });
        await checkHostile('POST', `/api/v1/workspaces/${segment}/content-types`, { name: 'hostile' });
      });
    }
  });

  describe('list query values', () => {
    for (const query of ['limit=0', 'limit=abc', 'limit=-1', 'limit=1.5', 'offset=-1', 'offset=abc', 'order=up']) {
      it(`GET /content/posts?${query} → 400 invalid_request`, async () => {
        expectError(await server.request('GET', `${ROOT}/content/posts?${query}`), 400, 'invalid_request');
        expectError(await send('GET', `${ROOT}/content/posts?${query}`), 400, 'invalid_request');
      });
    }
  });

  describe('addresses', () => {
    for (const url of ['/api/v1/content/posts', '/api/v1/content/posts/existing', '/api/v1/content-types', '/api/v1/media']) {
      it(`GET ${url} (no workspace) → 400 workspace_required`, async () => {
        expectError(await server.request('GET', url), 400, 'workspace_required');
      });
    }
    it('POST /api/v1/content/posts (no workspace) → 400 workspace_required, nothing written', async () => {
      await rejected(() => send('POST', '/api/v1/content/posts', { body: { title: 'Nowhere' } }), 400, 'workspace_required');
    });

    it('an unknown workspace → 404 not_found on reads and writes, nothing written', async () => {
      expectError(await server.request('GET', '/api/v1/workspaces/nope/content/posts'), 404, 'not_found');
      expectError(await server.request('GET', '/api/v1/workspaces/nope/content-types'), 404, 'not_found');
      await rejected(() => send('POST', '/api/v1/workspaces/nope/content/posts', { body: { title: 'Nowhere' } }), 404, 'not_found');
      await rejected(() => send('POST', '/api/v1/workspaces/nope/content-types', { body: { name: 'nowhere' } }), 404, 'not_found');
    });

    it('an unknown type → 404 not_found on reads and writes, nothing written', async () => {
      expectError(await server.request('GET', `${ROOT}/content/nope`), 404, 'not_found');
      expectError(await server.request('GET', `${ROOT}/content/nope/existing`), 404, 'not_found');
      expectError(await server.request('GET', `${ROOT}/content-types/nope`), 404, 'not_found');
      await rejected(() => send('POST', `${ROOT}/content/nope`, { body: { title: 'Nowhere' } }), 404, 'not_found');
      await rejected(() => send('PUT', `${ROOT}/content-types/nope`, { body: { label: 'Nowhere' } }), 404, 'not_found');
      await rejected(() => send('DELETE', `${ROOT}/content-types/nope`), 404, 'not_found');
    });

    it('an unknown entry → 404 not_found on reads and writes, nothing written', async () => {
      expectError(await server.request('GET', `${ROOT}/content/posts/nope`), 404, 'not_found');
      expectError(await send('GET', `${ROOT}/content/posts/nope`), 404, 'not_found');
      for (const method of ['PUT', 'PATCH']) {
        await rejected(() => send(method, `${ROOT}/content/posts/nope`, { body: { title: 'Nowhere' } }), 404, 'not_found');
      }
      await rejected(() => send('DELETE', `${ROOT}/content/posts/nope`), 404, 'not_found');
    });

    const wrongMethods: Array<[string, string, string[]]> = [
      ['PATCH', `${ROOT}/content-types`, ['GET', 'POST']],
      ['DELETE', `${ROOT}/content-types`, ['GET', 'POST']],
      ['PATCH', `${ROOT}/content-types/posts`, ['GET', 'PUT', 'DELETE']],
      ['POST', `${ROOT}/content-types/posts`, ['GET', 'PUT', 'DELETE']],
      ['DELETE', `${ROOT}/content/posts`, ['GET', 'POST']],
      ['PUT', `${ROOT}/content/posts`, ['GET', 'POST']],
      ['POST', `${ROOT}/content/posts/existing`, ['GET', 'PUT', 'PATCH', 'DELETE']],
    ];
    for (const [method, url, allowed] of wrongMethods) {
      it(`${method} ${url.slice(ROOT.length)} → 405 method_not_allowed with Allow: ${allowed.join(', ')}`, async () => {
        const response = await rejected(() => send(method, url, { body: { title: 'Wrong', name: 'wrong' } }), 405, 'method_not_allowed');
        const allow = (response.headers.get('allow') ?? '').split(',').map((item) => item.trim());
        expect(allow).to.include.members(allowed);
        expect(allow).to.not.include(method);
      });
    }
  });

  describe('credentials', () => {
    const writes: Array<[string, string, unknown]> = [
      ['POST', `${ROOT}/content/posts`, { title: 'Sneaky' }],
      ['PUT', `${ROOT}/content/posts/existing`, { title: 'Sneaky' }],
      ['PATCH', `${ROOT}/content/posts/existing`, { title: 'Sneaky' }],
      ['DELETE', `${ROOT}/content/posts/existing`, undefined],
      ['POST', `${ROOT}/content-types`, { name: 'sneaky' }],
      ['PUT', `${ROOT}/content-types/posts`, { label: 'Sneaky' }],
      ['DELETE', `${ROOT}/content-types/posts`, undefined],
    ];
    for (const [method, url, body] of writes) {
      const label = `${method} ${url.slice(ROOT.length)}`;
      it(`${label} without a token → 401 unauthorized, nothing written`, async () => {
        await rejected(() => server.request(method, url, { body }), 401, 'unauthorized');
      });
      it(`${label} with a garbage token → 401 unauthorized, nothing written`, async () => {
        await rejected(() => server.request(method, url, { body, token: 'garbage' }), 401, 'unauthorized');
      });
      it(`${label} with a token lacking the grant → 403 forbidden, nothing written`, async () => {
        await rejected(() => server.request(method, url, { body, token: readOnly }), 403, 'forbidden');
      });
    }

    const garbage = ['garbage', 'cms_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', () => `${token}x`, () => token.slice(0, -1)];
    for (const make of garbage) {
      const shown = typeof make === 'string' ? make.slice(0, 24) : String(make).replace(/^\(\) => /, '');
      for (const url of [`${ROOT}/content/posts`, `${ROOT}/content/posts/existing`, `${ROOT}/content-types`]) {
        it(`GET ${url.slice(ROOT.length)} with the bad token ${shown} → 401 unauthorized`, async () => {
          const bad = typeof make === 'string' ? make : make();
          expectError(await server.request('GET', url, { token: bad }), 401, 'unauthorized');
        });
      }
    }
    it('a malformed Authorization header on a read → 401 unauthorized', async () => {
      for (const header of ['Bearer', 'Bearer cms_', `Bearer ${'x'.repeat(5000)}`]) {
        const response = await server.request('GET', `${ROOT}/content/posts`, { headers: { authorization: header } });
        expectError(response, 401, 'unauthorized');
      }
    });
  });
});
