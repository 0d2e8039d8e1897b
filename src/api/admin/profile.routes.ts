// The signed-in user's own profile and avatar (SPEC admin table: /profile).
import Router from '@koa/router';
import { MAX_AVATAR_BYTES, type ProfileService } from '../../domain/auth/profile-service.ts';
import { bodyOf, type JsonBodyParser } from '../../http/json-body.ts';
import { newCsrfToken } from '../../http/csrf.ts';
import { startSession } from '../../http/session.ts';
import type { AppState } from '../../http/state.ts';
import { compileBody } from '../../http/validate.ts';
import { withoutNulls } from '../context.ts';
import { createAvatarReader } from './avatar-upload.ts';
import { profileSchema } from './profile.schemas.ts';
import { presentUser } from './users.presenter.ts';

/** Routes PUT /profile, POST and DELETE /profile/avatar, relative to the admin root. */
export function createProfileRouter(profiles: ProfileService, body: JsonBodyParser): Router<AppState> {
  const router = new Router<AppState>();
  const parseProfile = compileBody(profileSchema);
  const readAvatar = createAvatarReader(MAX_AVATAR_BYTES);

  router.put('/profile', body, async (ctx) => {
    const input = withoutNulls(parseProfile(bodyOf(ctx)));
    const user = await profiles.update(ctx.state.principal, input);
    if (input.password === undefined) {
      ctx.body = { data: presentUser(user, ctx.state.baseUrl) };
      return;
    }
    // The change ended every session of the user; this browser gets a new one (and a new CSRF token).
    const csrf = newCsrfToken();
    await startSession(ctx, user.id, csrf);
    ctx.body = { data: presentUser(user, ctx.state.baseUrl), meta: { csrf_token: csrf } };
  });

  router.post('/profile/avatar', async (ctx) => {
    const user = await profiles.setAvatar(ctx.state.principal, await readAvatar(ctx));
    ctx.body = { data: presentUser(user, ctx.state.baseUrl) };
  });

  router.delete('/profile/avatar', async (ctx) => {
    ctx.body = { data: presentUser(await profiles.removeAvatar(ctx.state.principal), ctx.state.baseUrl) };
  });
  return router;
}
