// Direct file URLs (SPEC "Addresses"): /media/{ws}/{filename} serves the
// original and /media-thumbs/{ws}/{filename} the thumbnail, with validators
// (ETag, Last-Modified → 304; the same on every node, from the record:
// domain/media/media-validators.ts), byte ranges (206) for seeking in video and
// audio, nosniff everywhere and a script-blocking CSP on SVG. Private files
// need media.read on media:{filename} (a token, or an admin session).
// Either URL takes `?w=&h=&fit=&format=&q=` to serve a transformed image
// (docs/media.md "Image transformations"), with the same rules and headers.
import Router from '@koa/router';
import type { Context } from 'koa';
import { contentTypeOf } from '../../domain/media/media-types.ts';
import type { MediaFileKind, MediaService } from '../../domain/media/media-service.ts';
import type { MediaValidators } from '../../domain/media/media-validators.ts';
import type { ImageTransformRequest } from '../../domain/media/image-transforms.ts';
import { conditionMatches } from '../../http/etag.ts';
import { validateQuery, type QueryState } from '../../http/query-params.ts';
import type { AppState } from '../../http/state.ts';
import { parseImageTransformQuery } from './media.schemas.ts';

// Inline styles and embedded data images still render; scripts, plugins,
// external loads and same-origin access (sandbox) do not.
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/** Builds the router for /media/{ws}/{filename} and /media-thumbs/{ws}/{filename} (GET and HEAD). */
export function createMediaFilesRouter(media: MediaService): Router<AppState> {
  const router = new Router<AppState>();
  const transform = validateQuery(parseImageTransformQuery);
  router.get('/media/:ws/:filename', transform, (ctx) => serve(ctx, media, 'file'));
  router.get('/media-thumbs/:ws/:filename', transform, (ctx) => serve(ctx, media, 'thumb'));
  return router;
}

type FileContext = Context & { state: AppState & QueryState<ImageTransformRequest>; params: Record<string, string> };

async function serve(ctx: FileContext, media: MediaService, kind: MediaFileKind): Promise<void> {
  const { record, file, mime, validators } = await media.openFile(ctx.state.principal, ctx.params.ws, ctx.params.filename, kind, ctx.state.query);
  let streaming = false;
  try {
    ctx.set('Content-Type', contentTypeOf(mime));
    ctx.set('ETag', validators.etag);
    if (validators.lastModified) ctx.set('Last-Modified', validators.lastModified.toUTCString());
    ctx.set('Accept-Ranges', 'bytes');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', record.visibility === 'private' ? 'private, no-cache' : 'public, no-cache');
    if (mime === 'image/svg+xml') ctx.set('Content-Security-Policy', SVG_CSP);
    if (isNotModified(ctx, validators)) {
      ctx.status = 304;
      return;
    }
    const range = ifRangeHolds(ctx, validators) ? parseRange(ctx.get('Range'), file.size) : undefined;
    if (range === 'unsatisfiable') {
      ctx.status = 416;
      ctx.set('Content-Range', `bytes */${file.size}`);
      ctx.body = '';
      return;
    }
    ctx.status = range ? 206 : 200;
    if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    const length = range ? range.end - range.start + 1 : file.size;
    if (ctx.method !== 'HEAD') {
      ctx.body = file.stream(range);
      streaming = true;
    }
    ctx.length = length;
  } finally {
    if (!streaming) await file.close();
  }
}

// If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2); weak comparison.
// Without a Last-Modified, If-Modified-Since has nothing to compare with.
function isNotModified(ctx: Context, { etag, lastModified }: MediaValidators): boolean {
  const match = ctx.get('If-None-Match');
  if (match !== '') return conditionMatches(match, etag);
  const since = Date.parse(ctx.get('If-Modified-Since'));
  return lastModified !== undefined && !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}

// A Range with If-Range applies only while the file is still the one the
// client had, which takes a strong validator (RFC 9110 13.1.5): a weak one
// (thumbnails, transformations) may name other bytes on another node, and
// the ranges of two encodings do not splice into one image.
function ifRangeHolds(ctx: Context, { etag, weak, lastModified }: MediaValidators): boolean {
  const condition = ctx.get('If-Range').trim();
  if (condition === '') return true;
  if (weak) return false;
  if (condition.startsWith('"') || condition.startsWith('W/')) return condition === etag;
  return lastModified !== undefined && condition === lastModified.toUTCString();
}

/**
 * One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; undefined (serve
 * the whole file) for no header, several ranges or a malformed one.
 */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  const end = match[2] === '' ? size - 1 : Number(match[2]);
  return { start, end: Math.min(end, size - 1) };
}
