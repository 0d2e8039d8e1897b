// What the server says about itself (GET /app): limits the screens check
// before they send (an upload over the size limit is refused at once).
import { get } from './client.ts';

export interface AppInfo {
  name: string;
  version: string;
  limits: { json_body_bytes: number; upload_file_bytes: number; upload_files: number; bulk_ids: number };
}

let cached: Promise<AppInfo> | undefined;

/** The server's description, asked once per page load. Throws ApiError. */
export function getAppInfo(): Promise<AppInfo> {
  cached ??= get<AppInfo>('/app').then((result) => result.data);
  cached.catch(() => (cached = undefined));
  return cached;
}
