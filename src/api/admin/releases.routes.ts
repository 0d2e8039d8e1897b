// Content releases (annotated tags on HEAD): list, create, delete. The rules
// are domain/git/release-service.ts; docs/releases.md has the use.
import Router from '@koa/router';
import type { ReleaseService } from '../../domain/git/release-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { createReleaseSchema } from './releases.schemas.ts';

/** Routes /releases and /releases/{name}, relative to the admin root; a name with `/` is sent with `%2F`. */
export function createReleasesRouter(releases: ReleaseService, body: JsonBodyParser): Router<AppState> {
  const router = new Router<AppState>();
  const parseCreate = compileBody(createReleaseSchema);

  router.get('/releases', async (ctx) => {
    const list = await releases.list(ctx.state.principal);
    ctx.body = { data: list, meta: { total: list.length } };
  });
  router.post('/releases', body, async (ctx) => {
    const input = parseCreate(bodyOf(ctx));
    ctx.status = 201;
    ctx.body = { data: await releases.create(ctx.state.principal, { name: input.name, note: input.note ?? undefined }) };
  });
  router.delete('/releases/:name', async (ctx) => {
    await releases.remove(ctx.state.principal, ctx.params.name);
    ctx.body = { data: { ok: true } };
  });
  return router;
}
