// Workspaces the signed-in user can switch between.
import { get } from './client.ts';
import type { Workspace } from './types.ts';

/** The active workspaces. Throws ApiError. */
export async function listWorkspaces(): Promise<Workspace[]> {
  return (await get<Workspace[]>('/workspaces')).data;
}
