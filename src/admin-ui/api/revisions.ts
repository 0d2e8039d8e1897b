// An entry's saved versions (each a commit in the content repository), one
// version in full, and restoring one.
import { get, post } from './client.ts';
import type { Entry, ListMeta } from './types.ts';

/** One saved version: when, by whom, with what message. */
export interface Revision {
  id: string;
  created_at: string;
  /** The user (or `token:…`) who saved it; null when it was made with git. */
  author_id: string | null;
  author_name: string;
  message: string;
  /** The newest version: what the entry is now. */
  current: boolean;
}

/** A version in full: the entry as it was then (null when that save removed it). */
export interface RevisionDetail extends Revision {
  entry: Entry | null;
}

const revisionsOf = (type: string, id: string) => `/content/${encodeURIComponent(type)}/${encodeURIComponent(id)}/revisions`;

/** One page of an entry's versions, newest first. Throws ApiError. */
export async function listRevisions(type: string, id: string, page: { limit: number; offset: number }): Promise<{ revisions: Revision[]; meta: ListMeta }> {
  const result = await get<Revision[], ListMeta>(revisionsOf(type, id), { query: page });
  return { revisions: result.data, meta: result.meta };
}

/** One version with the entry as it was. Throws ApiError. */
export async function getRevision(type: string, id: string, revision: string): Promise<RevisionDetail> {
  return (await get<RevisionDetail>(`${revisionsOf(type, id)}/${revision}`)).data;
}

/** Makes a version the current one (a new save; nothing is lost). Throws ApiError. */
export async function restoreRevision(type: string, id: string, revision: string): Promise<Entry> {
  return (await post<Entry>(`${revisionsOf(type, id)}/${revision}/restore`, {})).data;
}
