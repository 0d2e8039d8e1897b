// The admin workspace the admin guard selected, shared by the editorial admin
// routes. Query values are parsed by http/query-params.ts.
import { AppError } from '../../errors/app-error.ts';
import type { ApiContext } from '../context.ts';

/** The workspace of an admin request (X-Service-Workspace or the default), set by the admin guard. Throws internal_error when the guard did not run. */
export function adminWorkspaceOf(ctx: ApiContext): string {
  const workspace = ctx.state.workspace;
  if (workspace === undefined) throw new AppError('internal_error', 'The admin guard did not select a workspace.');
  return workspace;
}
