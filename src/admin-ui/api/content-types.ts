// Content types of the selected workspace.
import { get, patch } from './client.ts';
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
