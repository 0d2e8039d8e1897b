// The trash of one collection: what was deleted, restoring, deleting for good.
import { del, get, post } from './client.ts';
import type { Entry, ListMeta } from './types.ts';

/** A deleted entry: when and by whom (null when unknown). */
export type TrashedEntry = Entry & { deleted_at: string | null; deleted_by: string | null };

const trashOf = (type: string) => `/trash/${encodeURIComponent(type)}`;

/** One page of a collection's trash, newest deletion first. Throws ApiError. */
export async function listTrash(type: string, page: { limit: number; offset: number }): Promise<{ entries: TrashedEntry[]; meta: ListMeta }> {
  const result = await get<TrashedEntry[], ListMeta>(trashOf(type), { query: page });
  return { entries: result.data, meta: result.meta };
}

/** Puts an entry back under its URL key. Throws ApiError (409 when the key or the single page is taken). */
export async function restoreFromTrash(type: string, id: string): Promise<Entry> {
  return (await post<Entry>(`${trashOf(type)}/${encodeURIComponent(id)}/restore`, {})).data;
}

/** Deletes one trashed entry for good. Throws ApiError. */
export async function purgeFromTrash(type: string, id: string): Promise<void> {
  await del(`${trashOf(type)}/${encodeURIComponent(id)}`);
}

/** Deletes everything in a collection's trash for good; gives how many. Throws ApiError. */
export async function emptyTrash(type: string): Promise<number> {
  return (await del<{ purged: number }>(trashOf(type))).data.purged;
}
