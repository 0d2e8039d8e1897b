// Reordering content types (API.md "Admin ordering"): the order is stored in
// the workspace's workspace.yaml and every type list follows it. Mounted
// before the content-type routes so that "order" is never read as a type name.
import Router from '@koa/router';
import { FIELD_TYPES } from '../../domain/model/content-type.ts';
import type { TypeService } from '../../domain/types/type-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { adminWorkspaceOf } from './admin-params.ts';
import { typeOrderSchema } from './type-order.schemas.ts';

/** Route PATCH /content-types/order, relative to the admin root; answers like the list, with meta.field_types. */
export function createTypeOrderRouter(types: TypeService, body: JsonBodyParser): Router<AppState> {
  const router = new Router<AppState>();
  const parse = compileBody(typeOrderSchema);
  router.patch('/content-types/order', body, async (ctx) => {
    const { names } = parse(bodyOf(ctx));
    const data = await types.reorder(ctx.state.principal, adminWorkspaceOf(ctx), names);
    ctx.body = { data, meta: { field_types: [...FIELD_TYPES] } };
  });
  return router;
}
