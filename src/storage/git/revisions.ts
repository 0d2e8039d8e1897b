// Turns what a client names a version of the content by (`?ref=`) into a
// commit id, as `git rev-parse <ref>^{commit}` would: a full or abbreviated
// commit id, a tag (annotated tags peeled to their commit), a branch, or
// HEAD. Refs are read from their files (loose, then packed-refs) and objects
// from the object database, so no git process is started per request.
import { AppError } from '../../errors/app-error.ts';
import type { ObjectReader } from './object-reader.ts';
import { refNameProblem } from './ref-names.ts';
import { readHead, readRef } from './refs.ts';

/** How a ref named its commit: a full commit id is the only name that can never move. */
export type RevisionKind = 'commit' | 'abbreviated' | 'tag' | 'branch' | 'head';

/** A resolved ref: the commit and what kind of name led to it. */
export interface Revision {
  commit: string;
  kind: RevisionKind;
}

/** The shortest abbreviated commit id accepted, as git prints them by default. */
export const MIN_ABBREVIATED_LENGTH = 7;
const FULL_ID = /^[0-9a-fA-F]{40}$/;
const ABBREVIATED_ID = new RegExp(`^[0-9a-fA-F]{${MIN_ABBREVIATED_LENGTH},39}$`);
// Enough candidates to tell "one" from "several" even when trees and blobs share the prefix.
const PREFIX_CANDIDATES = 16;

/**
 * The commit `ref` names, or undefined when the repository has no such
 * commit, tag or branch. A name is tried as a tag, then a branch, then (7 to
 * 39 hex digits) as an abbreviated commit id, the order in which git
 * prefers them. Throws invalid_request for a name git would refuse
 * (`check-ref-format`: `..`, spaces, control characters, a leading `-`, …)
 * and for an abbreviated id that matches more than one commit.
 */
export async function resolveRevision(gitdir: string, objects: ObjectReader, ref: string): Promise<Revision | undefined> {
  if (ref === 'HEAD') {
    const { oid } = await readHead(gitdir);
    return oid === undefined ? undefined : { commit: oid, kind: 'head' };
  }
  if (FULL_ID.test(ref)) {
    const commit = await objects.peelToCommit(ref.toLowerCase());
    return commit === undefined ? undefined : { commit, kind: 'commit' };
  }
  const problem = refNameProblem(ref);
  if (problem !== undefined) throw new AppError('invalid_request', `The ref ${JSON.stringify(ref.slice(0, 100))} is not a valid commit id, tag or branch name: ${problem}`, { fields: { ref: problem } });
  for (const [prefix, kind] of [['refs/tags/', 'tag'], ['refs/heads/', 'branch']] as const) {
    const full = ref.startsWith(prefix) ? ref : `${prefix}${ref}`;
    const target = await readRef(gitdir, full);
    const commit = target === undefined ? undefined : await objects.peelToCommit(target);
    if (commit !== undefined) return { commit, kind };
  }
  if (ABBREVIATED_ID.test(ref)) return resolveAbbreviated(objects, ref.toLowerCase());
  return undefined;
}

async function resolveAbbreviated(objects: ObjectReader, prefix: string): Promise<Revision | undefined> {
  const commits = new Set<string>();
  for (const oid of objects.idsWithPrefix(prefix, PREFIX_CANDIDATES)) {
    const commit = await objects.peelToCommit(oid);
    if (commit !== undefined) commits.add(commit);
  }
  if (commits.size > 1) {
    const message = `The abbreviated commit id "${prefix}" matches more than one commit; give more digits.`;
    throw new AppError('invalid_request', message, { fields: { ref: message } });
  }
  const [commit] = commits;
  return commit === undefined ? undefined : { commit, kind: 'abbreviated' };
}
