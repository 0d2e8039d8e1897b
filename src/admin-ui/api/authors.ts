// Who wrote what: every user's name, for lists and side panels.
import { get } from './client.ts';
import type { Author } from './types.ts';

/** Every user's id and name. Throws ApiError. */
export async function listAuthors(): Promise<Author[]> {
  return (await get<Author[]>('/authors')).data;
}
