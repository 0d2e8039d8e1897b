// Real files for the media tests, made in the test (images with sharp), and
// multipart bodies built byte by byte so that hostile file names reach the
// server exactly as written (FormData would escape some of them).
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { AdminSession } from '../helpers/auth.ts';
import type { TestResponse, TestServer } from '../helpers/server.ts';

/** A PNG of the given size. */
export function makePng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer();
}

/** A JPEG of the given size. */
export function makeJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#cc6633' } }).jpeg().toBuffer();
}

/** An SVG that would run a script if served as a normal document. */
export const SVG_WITH_SCRIPT = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><script>alert(document.cookie)</script><rect width="20" height="10"/></svg>\n');

/** The start of a PDF. */
export const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

/** A text file; uploaded as `fake.png` its bytes do not match its extension. */
export const TEXT_BYTES = Buffer.from('This is plain text, not an image.\n');

/** One part of a multipart body: a file or a text field. */
export type Part = { field?: string; filename: string; bytes: Uint8Array; type?: string } | { field: string; value: string };

/** A multipart/form-data body with file names written into the headers verbatim. */
export function multipartBody(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----cms${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.field ?? 'media[]'}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`));
      chunks.push(Buffer.from(part.bytes), Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Who uploads: a bearer token (public API, default) or an admin session (admin API). */
export interface UploadAuth {
  token?: string;
  session?: AdminSession;
  workspace?: string;
}

/** POSTs the parts to the public or admin media route. */
export function uploadMedia(server: TestServer, parts: Part[], auth: UploadAuth = {}): Promise<TestResponse> {
  const { body, contentType } = multipartBody(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (auth.session) {
    headers.cookie = auth.session.cookie;
    headers['x-csrf-token'] = auth.session.csrf;
    if (auth.workspace) headers['x-service-workspace'] = auth.workspace;
    return server.request('POST', '/admin/api/media', { rawBody: new Uint8Array(body), headers });
  }
  return server.request('POST', `/api/v1/workspaces/${auth.workspace ?? 'default'}/media`, { rawBody: new Uint8Array(body), headers, token: auth.token });
}

/** The media item fields every response carries (SPEC "Media item"). */
export const MEDIA_ITEM_FIELDS = ['filename', 'name', 'url', 'thumb_url', 'size', 'mime', 'category', 'alt', 'title', 'visibility', 'width', 'height', 'uploaded_by', 'uploaded_at'];
