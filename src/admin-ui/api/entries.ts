// Entries of one collection or single page, in the selected workspace.
import { del, get, patch, post } from './client.ts';
import type { Entry, ListMeta } from './types.ts';

/** What a list asks for: paging, sort, search, filters (`filter[field]` → value) and the locale. */
export interface EntryListQuery {
  limit: number;
  offset: number;
  sort?: string;
  order?: 'asc' | 'desc';
  q?: string;
  locale?: string;
  /** Field → wanted value, sent as `filter[field]=value`; `in` lists as `filter[field][in]=a,b`. */
  filters?: Record<string, string | string[]>;
}

/** One entry with the version to send back in If-Match. */
export interface VersionedEntry {
  entry: Entry;
  etag: string | undefined;
}

/** A write body (API.md "Entries"): reserved keys plus custom fields. */
export type EntryBody = Record<string, unknown>;

const base = (type: string) => `/content/${encodeURIComponent(type)}`;
const one = (type: string, id: string) => `${base(type)}/${encodeURIComponent(id)}`;

/** One page of a collection. Throws ApiError. */
export async function listEntries(type: string, query: EntryListQuery, signal?: AbortSignal): Promise<{ entries: Entry[]; meta: ListMeta }> {
  const params: Record<string, string | number | undefined> = { limit: query.limit, offset: query.offset, sort: query.sort, order: query.order, q: query.q || undefined, locale: query.locale };
  for (const [field, value] of Object.entries(query.filters ?? {})) {
    if (Array.isArray(value)) params[`filter[${field}][in]`] = value.join(',');
    else params[`filter[${field}]`] = value;
  }
  const result = await get<Entry[], ListMeta>(base(type), { query: params, signal });
  return { entries: result.data, meta: result.meta };
}

/** One entry in `locale` (the default when omitted). Throws ApiError (404 not_found). */
export async function getEntry(type: string, id: string, locale?: string): Promise<VersionedEntry> {
  const result = await get<Entry>(one(type, id), { query: { locale } });
  return { entry: result.data, etag: result.etag };
}

/** Creates an entry. Throws ApiError (422 with `fields`, 409 for a taken slug). */
export async function createEntry(type: string, body: EntryBody): Promise<VersionedEntry> {
  const result = await post<Entry>(base(type), body);
  return { entry: result.data, etag: result.etag };
}

/** Saves changes; `etag` guards against overwriting someone else's change (412 precondition_failed). Throws ApiError. */
export async function updateEntry(type: string, id: string, body: EntryBody, etag: string | undefined): Promise<VersionedEntry> {
  const result = await patch<Entry>(one(type, id), body, { headers: etag ? { 'if-match': etag } : {} });
  return { entry: result.data, etag: result.etag };
}

/** Moves an entry to the trash. Throws ApiError. */
export async function trashEntry(type: string, id: string, etag?: string): Promise<void> {
  await del(one(type, id), { headers: etag ? { 'if-match': etag } : {} });
}

/** Applies the same change to many entries in one save (all or nothing). Throws ApiError. */
export async function bulkUpdateEntries(type: string, ids: string[], changes: EntryBody): Promise<Entry[]> {
  return (await patch<Entry[]>(`${base(type)}/bulk`, { ids, changes })).data;
}

/** Moves many entries to the trash in one save. Throws ApiError. */
export async function bulkTrashEntries(type: string, ids: string[]): Promise<void> {
  await del(`${base(type)}/bulk`, { body: { ids } });
}

/** Deletes one translation for good (not the default locale). Throws ApiError. */
export async function deleteTranslation(type: string, id: string, locale: string): Promise<void> {
  await del(`${one(type, id)}/translations/${encodeURIComponent(locale)}`);
}
