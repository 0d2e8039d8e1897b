// `?ref=` on the public reads (API.md "Changes feed and reads at a ref"):
// picking the content a read is answered from, and the caching headers of an
// answer at a ref. Which commit a ref names and what the content was there
// is domain/history/ref-reads.ts; docs/releases.md has the rules.
import type { Context } from 'koa';
import type { RefReads, RefView } from '../domain/history/ref-reads.ts';
import type { AppState } from '../http/state.ts';

/** A year, the longest max-age HTTP caches are asked to honour. */
const ONE_YEAR_SECONDS = 31_536_000;

/** A route context whose validated query may carry `ref` (withRefParam). */
export type RefContext = Context & { state: AppState & { query: { ref?: string } } };

/**
 * The content at the request's `ref`, or undefined when it names none (the
 * current content answers). Throws invalid_request (malformed or ambiguous
 * ref) and not_found (no such commit, tag or branch).
 */
export async function viewAt(ctx: RefContext, refs: RefReads | undefined, workspace: string): Promise<RefView | undefined> {
  const ref = ctx.state.query.ref;
  return refs === undefined || ref === undefined ? undefined : refs.at(workspace, ref);
}

/**
 * Caching of an answer at a ref: a full commit id names content that never
 * changes, so the answer is immutable for a year, `private` when a token
 * read it (drafts may be in it). Scheduled entries become visible when their
 * time passes, so while one of the workspace is still ahead the answer is
 * kept only until then. A tag or branch can move: no header, as at HEAD.
 */
export function setRefCaching(ctx: Context & { state: AppState }, view: RefView, workspace: string, now = Date.now()): void {
  if (view.kind !== 'commit') return;
  const scope = ctx.state.principal.kind === 'anonymous' ? 'public' : 'private';
  const next = view.content.nextPublishAfter(workspace, now);
  ctx.set('Cache-Control', Number.isFinite(next) ? `${scope}, max-age=${Math.max(0, Math.floor((next - now) / 1000))}` : `${scope}, max-age=${ONE_YEAR_SECONDS}, immutable`);
  ctx.vary('Authorization');
}
