// The OpenAPI documents: valid OpenAPI 3.1 by an independent validator,
// complete (every public route), built from the routes' own validation
// (each documented query constraint is one the server enforces), typed per
// content type, and true to what the API really answers.
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { createMediaFilesRouter } from '../../src/api/media/media-files.routes.ts';
import { createPublicRouter } from '../../src/api/public.ts';
import { undocumentedRoutes, type RouteLayer } from '../../src/api/openapi/openapi-document.ts';
import { buildAdminServer, FULL_ACCESS } from '../helpers/auth.ts';
import { ResponseChecker } from '../helpers/openapi.ts';
import type { TestServer } from '../helpers/server.ts';

interface Parameter {
  name: string;
  in: string;
  schema: { type?: string; minimum?: number; maximum?: number; enum?: string[]; maxLength?: number };
}

type Document = ConstructorParameters<typeof ResponseChecker>[0] & {
  openapi: string; paths: Record<string, Record<string, { parameters?: Parameter[] }>>; components: { schemas: Record<string, any> } };

async function expectValidOpenApi(document: unknown): Promise<void> {
  const result = await new Validator().validate(document as Record<string, unknown>);
  expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).to.deep.equal([]);
  expect(result.valid).to.equal(true);
}

describe('OpenAPI', function () {
  this.timeout(60_000);
  let server: TestServer;
  let token: string;
  let publicDoc: Document;
  let workspaceDoc: Document;

  before(async () => {
    ({ server, token } = await buildAdminServer({ token: FULL_ACCESS }));
    const created = await server.request('POST', '/api/v1/workspaces/default/content-types', {
      token,
      body: {
        name: 'authors',
        fields: { bio: { type: 'markdown' } },
      },
    });
    expect(created.status, created.text).to.equal(201);
    const posts = await server.request('POST', '/api/v1/workspaces/default/content-types', {
      token,
      body: {
        name: 'posts',
        label: 'Posts',
        fields: {
          body: { type: 'markdown', required: true },
          views: { type: 'number', min: 0 },
          featured: { type: 'boolean' },
          tags: { type: 'select', multiple: true, options: ['news', 'tech'] },
          kind: { type: 'select', options: ['short', 'long'] },
          author: { type: 'relation', target: 'authors' },
          cover: { type: 'media' },
          day: { type: 'date' },
          extra: { type: 'json' },
        },
      },
    });
    expect(posts.status, posts.text).to.equal(201);
    const author = await server.request('POST', '/api/v1/workspaces/default/content/authors', { token, body: { title: 'Ada', status: 'published', bio: 'Hi' } });
    const post = await server.request('POST', '/api/v1/workspaces/default/content/posts', {
      token,
      body: { title: 'Hello', status: 'published', body: '# Hi', views: 3, featured: true, tags: ['news'], kind: 'short', author: author.body.data.id, day: '2026-01-02', extra: { a: 1 } },
    });
    expect(post.status, post.text).to.equal(201);
    publicDoc = (await server.request('GET', '/api/v1/openapi.json')).body;
    workspaceDoc = (await server.request('GET', '/api/v1/workspaces/default/openapi.json')).body;
  });

  after(() => server.close());

  it('GET /api/v1/openapi.json is a valid OpenAPI 3.1 document', async () => {
    expect(publicDoc.openapi).to.equal('3.1.0');
    await expectValidOpenApi(publicDoc);
  });

  it('GET /api/v1/workspaces/{ws}/openapi.json is a valid OpenAPI 3.1 document', async () => {
    await expectValidOpenApi(workspaceDoc);
  });

  it('documents every route of the public router and the media file routes', () => {
    const mediaFiles = createMediaFilesRouter(server.services.media);
    const router = createPublicRouter(server.services, server.services.config, [mediaFiles]);
    const layers = [...router.stack, ...mediaFiles.stack] as unknown as RouteLayer[];
    expect(undocumentedRoutes(layers)).to.deep.equal([]);
    const routes = layers.filter((candidate) => candidate.methods.length > 0 && /^\/(api\/v1|media|media-thumbs)\//.test(candidate.path));
    expect(routes.length).to.be.greaterThan(30);
    for (const layer of routes) {
      const path = layer.path.replace(/:(\w+)/g, '{$1}');
      for (const method of layer.methods.filter((candidate) => candidate !== 'HEAD')) expect(publicDoc.paths[path]?.[method.toLowerCase()], `${method} ${path}`).to.not.equal(undefined);
    }
  });

  it('lists the query parameters the list route validates, with constraints the server enforces', async () => {
    const parameters = publicDoc.paths['/api/v1/workspaces/{ws}/content/{type}'].get.parameters!.filter((parameter) => parameter.in === 'query');
    expect(parameters.map((parameter) => parameter.name)).to.have.members(['ref', 'q', 'limit', 'offset', 'order', 'sort', 'locale', 'include', 'filter']);
    for (const parameter of parameters) {
      const { schema } = parameter;
      const refused = schema.type === 'integer' ? String((schema.minimum ?? 0) - 1) : schema.enum ? 'not-a-choice' : schema.maxLength ? 'x'.repeat(schema.maxLength + 1) : undefined;
      if (refused === undefined) continue;
      const answer = await server.request('GET', `/api/v1/workspaces/default/content/posts?${parameter.name}=${encodeURIComponent(refused)}`);
      expect(answer.status, parameter.name).to.equal(400);
      expect(answer.body.error.fields).to.have.property(parameter.name);
    }
    const media = publicDoc.paths['/api/v1/workspaces/{ws}/media'].get.parameters!.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
    expect(media).to.have.members(['q', 'category', 'kind', 'visibility', 'limit', 'offset']);
    for (const file of ['/media/{ws}/{filename}', '/media-thumbs/{ws}/{filename}']) {
      const transform = publicDoc.paths[file].get.parameters!.filter((parameter) => parameter.in === 'query');
      expect(transform.map((parameter) => parameter.name), file).to.have.members(['w', 'h', 'fit', 'format', 'q']);
      expect(transform.find((parameter) => parameter.name === 'w')!.schema.enum, file).to.include(640);
      expect(transform.find((parameter) => parameter.name === 'format')!.schema.enum, file).to.have.members(['webp', 'avif', 'jpeg', 'png']);
    }
    // Every public read of types and entries can answer at a ref (docs/releases.md).
    for (const path of ['/api/v1/workspaces/{ws}/content/{type}/{id}', '/api/v1/workspaces/{ws}/content-types', '/api/v1/workspaces/{ws}/content-types/{type}']) {
      expect(publicDoc.paths[path].get.parameters!.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name), path).to.include('ref');
    }
  });

  it('documents request bodies with the schemas the routes validate with', async () => {
    const meta = publicDoc.paths['/api/v1/workspaces/{ws}/media/{filename}/meta'].put as unknown as { requestBody: { content: Record<string, { schema: { properties: Record<string, { type: unknown }>; additionalProperties: boolean } }> } };
    const schema = meta.requestBody.content['application/json'].schema;
    expect(schema.additionalProperties).to.equal(false);
    expect(schema.properties.alt.type).to.deep.equal(['string', 'null']);
  });

  it('gives each content type an entry schema generated from its YAML', () => {
    const posts = workspaceDoc.components.schemas.Entry_posts;
    expect(posts.properties.type).to.deep.equal({ const: 'posts' });
    const data = posts.properties.data;
    expect(data.required).to.deep.equal(['body']);
    expect(data.properties.body).to.deep.include({ type: 'string' });
    expect(data.properties.views.anyOf[0]).to.deep.equal({ type: 'number', minimum: 0 });
    expect(data.properties.featured.anyOf[0]).to.deep.equal({ type: 'boolean' });
    expect(data.properties.tags).to.deep.equal({ type: 'array', items: { type: 'string', enum: ['news', 'tech'] } });
    expect(data.properties.kind.anyOf[0]).to.deep.equal({ type: 'string', enum: ['short', 'long'] });
    expect(data.properties.author.anyOf[0].anyOf[1]).to.deep.equal({ $ref: '#/components/schemas/Entry_authors' });
    expect(data.properties.day.anyOf[0]).to.deep.equal({ type: 'string', format: 'date' });
    expect(workspaceDoc.components.schemas.EntryInput_posts.properties.tags).to.deep.equal({ type: 'array', items: { type: 'string', enum: ['news', 'tech'] } });
    const list = workspaceDoc.paths['/api/v1/workspaces/{ws}/content/posts'].get as unknown as { parameters: Parameter[] };
    expect(list.parameters.map((parameter) => parameter.name)).not.to.include('type');
  });

  it('leaves out private types the caller may not read', async () => {
    const made = await server.request('POST', '/api/v1/workspaces/default/content-types', { token, body: { name: 'secrets', visibility: 'private', fields: {} } });
    expect(made.status, made.text).to.equal(201);
    const anonymous = (await server.request('GET', '/api/v1/workspaces/default/openapi.json')).body as Document;
    const withToken = (await server.request('GET', '/api/v1/workspaces/default/openapi.json', { token })).body as Document;
    expect(anonymous.components.schemas).not.to.have.property('Entry_secrets');
    expect(withToken.components.schemas).to.have.property('Entry_secrets');
    expect((await server.request('GET', '/api/v1/workspaces/nope/openapi.json')).status).to.equal(404);
  });

  it('matches what the API answers', async () => {
    const generic = new ResponseChecker(publicDoc, 'https://cms.test/openapi.json');
    const typed = new ResponseChecker(workspaceDoc, 'https://cms.test/default/openapi.json');
    const get = async (checker: ResponseChecker, template: string, url: string, status = 200) => {
      const answer = await server.request('GET', url, { token });
      expect(answer.status, answer.text).to.equal(status);
      checker.check(template, 'get', status, answer.body);
    };
    await get(generic, '/api/v1/health', '/api/v1/health');
    await get(generic, '/api/v1/workspaces/{ws}/content-types', '/api/v1/workspaces/default/content-types');
    await get(generic, '/api/v1/workspaces/{ws}/content-types/{type}', '/api/v1/workspaces/default/content-types/posts');
    await get(generic, '/api/v1/workspaces/{ws}/content/{type}', '/api/v1/workspaces/default/content/posts?include=author');
    await get(generic, '/api/v1/workspaces/{ws}/content/{type}/{id}', '/api/v1/workspaces/default/content/posts/hello');
    await get(generic, '/api/v1/workspaces/{ws}/media', '/api/v1/workspaces/default/media');
    await get(generic, '/api/v1/workspaces/{ws}/problems', '/api/v1/workspaces/default/problems');
    await get(generic, '/api/v1/workspaces/{ws}/content/{type}', '/api/v1/workspaces/default/content/nope', 404);
    await get(generic, '/api/v1/workspaces/{ws}/content/{type}', '/api/v1/workspaces/default/content/posts?limit=0', 400);
    await get(typed, '/api/v1/workspaces/{ws}/content/posts', '/api/v1/workspaces/default/content/posts');
    await get(typed, '/api/v1/workspaces/{ws}/content/posts', '/api/v1/workspaces/default/content/posts?include=author');
    await get(typed, '/api/v1/workspaces/{ws}/content/posts/{id}', '/api/v1/workspaces/default/content/posts/hello');
    await get(typed, '/api/v1/workspaces/{ws}/content/authors', '/api/v1/workspaces/default/content/authors');

    const created = await server.request('POST', '/api/v1/workspaces/default/content/posts', { token, body: { title: 'Second', body: 'text' } });
    typed.check('/api/v1/workspaces/{ws}/content/posts', 'post', 201, created.body);
    const patched = await server.request('PATCH', `/api/v1/workspaces/default/content/posts/${created.body.data.id}`, { token, body: { views: 5 } });
    typed.check('/api/v1/workspaces/{ws}/content/posts/{id}', 'patch', 200, patched.body);
    const deleted = await server.request('DELETE', `/api/v1/workspaces/default/content/posts/${created.body.data.id}`, { token });
    typed.check('/api/v1/workspaces/{ws}/content/posts/{id}', 'delete', 200, deleted.body);

    const listing = await server.request('GET', '/api/v1/workspaces/default/changes?limit=1', { token });
    generic.check('/api/v1/workspaces/{ws}/changes', 'get', 200, listing.body);
    expect(listing.body.meta.next_cursor).to.be.a('string');
    const since = await server.request('GET', `/api/v1/workspaces/default/changes?since=${listing.body.meta.head}`, { token });
    generic.check('/api/v1/workspaces/{ws}/changes', 'get', 200, since.body);
  });

  it('serves the reference page at /api/docs with Swagger UI from this server under a strict CSP', async () => {
    const page = await fetch(`${server.baseUrl}/api/docs`);
    expect(page.status).to.equal(200);
    const html = await page.text();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("script-src 'self'").and.not.to.include('unsafe-eval');
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources.filter((source) => source !== 'data:,')).to.have.length(3);
    expect(html).not.to.match(/<script>(?!<\/script>)/);
    for (const source of sources.filter((candidate) => candidate !== 'data:,')) {
      expect(source).to.match(/^\/api\/docs\/assets\//);
      const asset = await fetch(`${server.baseUrl}${source}`);
      expect(asset.status, source).to.equal(200);
      expect((await asset.arrayBuffer()).byteLength).to.be.greaterThan(50);
    }
    expect((await fetch(`${server.baseUrl}/api/docs/assets/nope.js`)).status).to.equal(404);
  });
});
