// The media library of the selected workspace: list with filters, uploads
// with progress, metadata, visibility, categories, rename and delete.
import { del, get, patch, post, put, upload } from './client.ts';
import type { ListMeta } from './types.ts';

/** One file (docs/media.md "Media item"). */
export interface MediaItem {
  filename: string;
  name: string;
  url: string;
  thumb_url: string;
  size: number;
  mime: string;
  category: string;
  alt: string;
  title: string;
  visibility: 'public' | 'private';
  width: number | null;
  height: number | null;
  uploaded_by: string | null;
  uploaded_at: string;
}

/** The kinds of file the list filters by. */
export const MEDIA_KINDS = ['image', 'video', 'audio', 'pdf', 'office', 'archive', 'text'] as const;

export interface MediaQuery {
  q?: string;
  category?: string;
  kind?: string;
  visibility?: string;
  limit: number;
  offset: number;
}

export type MediaListMeta = ListMeta & { categories: string[] };

const one = (filename: string) => `/media/${encodeURIComponent(filename)}`;

/** One page of files, newest first, with every category. Throws ApiError. */
export async function listMedia(query: MediaQuery, signal?: AbortSignal): Promise<{ items: MediaItem[]; meta: MediaListMeta }> {
  const result = await get<MediaItem[], MediaListMeta>('/media', { query: { ...query }, signal });
  return { items: result.data, meta: result.meta };
}

/** Uploads one file (into `category` when given), reporting progress. Throws ApiError (413 too large, 422 type not allowed). */
export async function uploadFile(file: File, category: string | undefined, onProgress: (share: number) => void): Promise<MediaItem> {
  const form = new FormData();
  form.append('media[]', file, file.name);
  if (category) form.append('category', category);
  const result = await upload<MediaItem[]>('/media', form, onProgress);
  return result.data[0];
}

/** Saves alt text and title ('' clears). Throws ApiError. */
export async function updateMediaMeta(filename: string, meta: { alt: string; title: string }): Promise<MediaItem> {
  return (await patch<MediaItem>(`${one(filename)}/meta`, meta)).data;
}

/** Makes a file public or private. Throws ApiError. */
export async function setMediaVisibility(filenames: string[], visibility: 'public' | 'private'): Promise<void> {
  await put('/media/bulk-visibility', { files: filenames, visibility });
}

/** Moves files into a category ('' for none). Throws ApiError. */
export async function moveMedia(filenames: string[], category: string): Promise<void> {
  await put('/media/bulk-category', { files: filenames, category });
}

/** Renames a file; entries that use it are updated in the same save. Throws ApiError (409 taken, 422 bad name). */
export async function renameMedia(filename: string, newName: string): Promise<MediaItem> {
  return (await put<MediaItem>(`${one(filename)}/rename`, { filename: newName })).data;
}

/** Deletes files for good. Throws ApiError. */
export async function deleteMedia(filenames: string[]): Promise<void> {
  await post('/media/bulk-delete', { files: filenames });
}

/** Creates a category (under `parent`); gives every category after it. Throws ApiError. */
export async function createCategory(name: string, parent?: string): Promise<string[]> {
  return (await post<{ name: string }, { categories: string[] }>('/media/categories', { name, ...(parent ? { parent } : {}) })).meta.categories;
}

/** Renames a category (a name with "/" moves it). Throws ApiError. */
export async function renameCategory(category: string, name: string): Promise<string[]> {
  return (await put<{ name: string }, { categories: string[] }>(`/media/categories/${encodeURIComponent(category)}`, { name })).meta.categories;
}

/** Deletes a category and its subcategories; their files stay, without a category. Throws ApiError. */
export async function deleteCategory(category: string): Promise<string[]> {
  return (await del<{ ok: true }, { categories: string[] }>(`/media/categories/${encodeURIComponent(category)}`)).meta.categories;
}

/** An entry that uses a file in a media field. */
export interface MediaUse {
  type: string;
  id: string;
  slug: string;
  title: string;
}

/** The entries that use a file (a rename updates them). Throws ApiError. */
export async function mediaUsedBy(filename: string): Promise<MediaUse[]> {
  return (await get<MediaUse[]>(`${one(filename)}/used-by`)).data;
}
