// Content types of the selected workspace.
import { del, get, patch, post, put } from './client.ts';
import type { ContentType } from './types.ts';

/** The workspace's types in their stored order. Throws ApiError. */
export async function listContentTypes(): Promise<ContentType[]> {
  return (await get<ContentType[]>('/content-types')).data;
}

/** Stores a new order (every type's name, collections and single pages). Throws ApiError (403 without schema.update). */
export async function reorderContentTypes(names: string[]): Promise<ContentType[]> {
  return (await patch<ContentType[]>('/content-types/order', { names })).data;
}

/** One type of the workspace. Throws ApiError (404 not_found). */
export async function getContentType(name: string): Promise<ContentType> {
  return (await get<ContentType>(`/content-types/${encodeURIComponent(name)}`)).data;
}

/** A type as the builder sends it (API.md "Content types"). */
export type ContentTypeBody = Partial<Omit<ContentType, 'fields'>> & { fields: Record<string, Record<string, unknown>> };

/** Creates a type. Throws ApiError (422 with `fields`, 409 for a taken name). */
export async function createContentType(body: ContentTypeBody): Promise<ContentType> {
  return (await post<ContentType>('/content-types', body)).data;
}

/** Saves a type's new definition. Throws ApiError (422 with `fields`). */
export async function updateContentType(name: string, body: ContentTypeBody): Promise<ContentType> {
  return (await put<ContentType>(`/content-types/${encodeURIComponent(name)}`, body)).data;
}

/** Deletes a type with its entries and trash. Throws ApiError. */
export async function deleteContentType(name: string): Promise<void> {
  await del(`/content-types/${encodeURIComponent(name)}`);
}
