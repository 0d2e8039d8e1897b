// Content releases (GET/POST /admin/api/releases, DELETE /admin/api/releases/{name}):
// named versions of the content that a website can be built from.
import { del, get, post } from './client.ts';

/** A release as the admin API lists it. */
export interface Release {
  name: string;
  commit: string;
  note: string | null;
  actor: { id: string | null; name: string | null };
  created_at: string;
}

/** Every release, newest first. Throws ApiError. */
export async function listReleases(): Promise<Release[]> {
  return (await get<Release[]>('/releases')).data;
}

/** Names the current content as a release. Throws ApiError (422 with `fields.name`/`fields.note`, 409 for a name in use). */
export async function createRelease(input: { name: string; note?: string }): Promise<Release> {
  return (await post<Release>('/releases', input)).data;
}

/** Deletes a release (the content stays). Throws ApiError. */
export async function deleteRelease(name: string): Promise<void> {
  await del(`/releases/${encodeURIComponent(name)}`);
}

/** The public API address that reads the workspace's content types as they were in `release`; a site build adds `?ref=` the same way to every read. */
export function releaseReadUrl(workspace: string, release: string): string {
  return `${window.location.origin}/api/v1/workspaces/${encodeURIComponent(workspace)}/content-types?ref=${encodeURIComponent(release)}`;
}
