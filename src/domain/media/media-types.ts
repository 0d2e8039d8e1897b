// Which files the media library accepts, decided from their bytes: file-type
// reads the magic numbers, and SVG and plain text (which have none) are
// recognised here. The client's Content-Type header is never trusted; the
// file name's extension must agree with what the bytes are.
import type { Readable } from 'node:stream';
import { AppError } from '../../errors/app-error.ts';

/** The groups of the allow-list (`CMS_MEDIA_TYPES`). */
export const MEDIA_GROUPS = ['image', 'video', 'audio', 'pdf', 'office', 'archive', 'text'] as const;

/** One of MEDIA_GROUPS. */
export type MediaGroup = (typeof MEDIA_GROUPS)[number];

/** One kind of file the library knows: its MIME type and the extensions a name may carry. */
export interface MediaType {
  mime: string;
  group: MediaGroup;
  /** Accepted extensions, lowercase; the first is used when a name has none. */
  extensions: string[];
}

const image = (mime: string, ...extensions: string[]): MediaType => ({ mime, group: 'image', extensions });
const video = (mime: string, ...extensions: string[]): MediaType => ({ mime, group: 'video', extensions });
const audio = (mime: string, ...extensions: string[]): MediaType => ({ mime, group: 'audio', extensions });
const office = (mime: string, ...extensions: string[]): MediaType => ({ mime, group: 'office', extensions });
const archive = (mime: string, ...extensions: string[]): MediaType => ({ mime, group: 'archive', extensions });
const text = (mime: string, ...extensions: string[]): MediaType => ({ mime, group: 'text', extensions });

/** SVG is recognised by its root element, not by file-type. */
export const SVG_TYPE = image('image/svg+xml', 'svg');

// Keyed by file-type's `ext` result.
const SNIFFED: Record<string, MediaType> = {
  jpg: image('image/jpeg', 'jpg', 'jpeg'),
  png: image('image/png', 'png'),
  apng: image('image/apng', 'png', 'apng'),
  gif: image('image/gif', 'gif'),
  webp: image('image/webp', 'webp'),
  avif: image('image/avif', 'avif'),
  mp4: video('video/mp4', 'mp4'),
  m4v: video('video/x-m4v', 'm4v', 'mp4'),
  webm: video('video/webm', 'webm'),
  mov: video('video/quicktime', 'mov', 'qt'),
  mkv: video('video/x-matroska', 'mkv'),
  ogv: video('video/ogg', 'ogv', 'ogg'),
  avi: video('video/vnd.avi', 'avi'),
  mpg: video('video/mpeg', 'mpg', 'mpeg'),
  '3gp': video('video/3gpp', '3gp'),
  mp3: audio('audio/mpeg', 'mp3'),
  m4a: audio('audio/mp4', 'm4a'),
  ogg: audio('audio/ogg', 'ogg', 'oga'),
  oga: audio('audio/ogg', 'oga', 'ogg'),
  opus: audio('audio/opus', 'opus', 'ogg'),
  flac: audio('audio/flac', 'flac'),
  wav: audio('audio/wav', 'wav'),
  aac: audio('audio/aac', 'aac'),
  pdf: { mime: 'application/pdf', group: 'pdf', extensions: ['pdf'] },
  docx: office('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'),
  xlsx: office('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'),
  pptx: office('application/vnd.openxmlformats-officedocument.presentationml.presentation', 'pptx'),
  odt: office('application/vnd.oasis.opendocument.text', 'odt'),
  ods: office('application/vnd.oasis.opendocument.spreadsheet', 'ods'),
  odp: office('application/vnd.oasis.opendocument.presentation', 'odp'),
  rtf: office('application/rtf', 'rtf'),
  zip: archive('application/zip', 'zip'),
  gz: archive('application/gzip', 'gz', 'tgz'),
  'tar.gz': archive('application/gzip', 'gz', 'tgz'),
  tar: archive('application/x-tar', 'tar'),
  '7z': archive('application/x-7z-compressed', '7z'),
  bz2: archive('application/x-bzip2', 'bz2'),
  xz: archive('application/x-xz', 'xz'),
  rar: archive('application/vnd.rar', 'rar'),
  zst: archive('application/zstd', 'zst'),
  vtt: text('text/vtt', 'vtt'),
};

// Old Office files share one container format (file-type's `cfb`); the extension tells them apart.
const LEGACY_OFFICE: Record<string, MediaType> = {
  doc: office('application/msword', 'doc'),
  xls: office('application/vnd.ms-excel', 'xls'),
  ppt: office('application/vnd.ms-powerpoint', 'ppt'),
};

// Plain text has no signature; the extension picks the MIME type, `.txt` when there is none.
const TEXT_TYPES: Record<string, MediaType> = {
  txt: text('text/plain', 'txt', 'text'),
  text: text('text/plain', 'txt', 'text'),
  md: text('text/markdown', 'md', 'markdown'),
  markdown: text('text/markdown', 'md', 'markdown'),
  csv: text('text/csv', 'csv'),
  json: text('application/json', 'json'),
  vtt: text('text/vtt', 'vtt'),
};

const ALL_TYPES: MediaType[] = [SVG_TYPE, ...Object.values(SNIFFED), ...Object.values(LEGACY_OFFICE), ...Object.values(TEXT_TYPES)];
const GROUP_BY_MIME = new Map(ALL_TYPES.map((type) => [type.mime, type.group]));

/** The group of a stored MIME type (image, video, …), or undefined for one the library does not know. */
export function groupOfMime(mime: string): MediaGroup | undefined {
  return GROUP_BY_MIME.get(mime);
}

const RASTER_MIMES = new Set(['image/jpeg', 'image/png', 'image/apng', 'image/gif', 'image/webp', 'image/avif']);

/** The allow-list in effect: the MIME types uploads may have. */
export type AllowedTypes = ReadonlySet<string>;

/**
 * Turns the configured allow-list (group names and/or MIME types) into the
 * set of allowed MIME types; used once at start. Throws a plain Error naming
 * an entry that is neither a group nor a known MIME type.
 */
export function resolveAllowedTypes(entries: readonly string[]): AllowedTypes {
  const allowed = new Set<string>();
  for (const entry of entries) {
    const matching = ALL_TYPES.filter((type) => type.group === entry || type.mime === entry);
    if (matching.length === 0) {
      throw new Error(`CMS_MEDIA_TYPES: "${entry}" is neither a media group (${MEDIA_GROUPS.join(', ')}) nor a known MIME type.`);
    }
    for (const type of matching) allowed.add(type.mime);
  }
  return allowed;
}

/** The bytes of a file as sniffing needs them: its first bytes, and a stream of the whole file. */
export interface SniffSource {
  head: Uint8Array;
  stream: () => Promise<Readable>;
}

/**
 * Decides what a file is from its bytes and its name's extension. Returns
 * undefined when the bytes are of no kind the library knows.
 */
export async function sniffMediaType(source: SniffSource, extension: string | undefined): Promise<MediaType | undefined> {
  // Imported on first use, like every library that no start-up step needs.
  const { fileTypeFromStream } = await import('file-type');
  const stream = await source.stream();
  let sniffed;
  try {
    sniffed = await fileTypeFromStream(stream);
  } finally {
    stream.destroy();
  }
  if (sniffed && sniffed.ext !== 'xml') {
    if (sniffed.ext === 'cfb') return extension === undefined ? undefined : LEGACY_OFFICE[extension];
    return SNIFFED[sniffed.ext];
  }
  const textual = decodeText(source.head);
  if (textual === undefined) return undefined;
  if (isSvg(textual)) return SVG_TYPE;
  if (sniffed) return undefined;
  return extension === undefined ? TEXT_TYPES.txt : TEXT_TYPES[extension] ?? TEXT_TYPES.txt;
}

/**
 * The extension a stored file gets: the client's extension when it fits the
 * sniffed type, the type's usual one when the name has none. Throws
 * file_type_not_allowed when the extension belongs to something else.
 */
export function extensionFor(type: MediaType, extension: string | undefined, originalName: string): string {
  if (extension === undefined) return type.extensions[0];
  if (type.extensions.includes(extension)) return extension;
  throw new AppError('file_type_not_allowed', `The file "${shorten(originalName)}" is ${type.mime}, which does not match its extension ".${extension}".`, {
    fields: { 'media[]': `The extension ".${extension}" does not match the file's content (${type.mime}).` },
  });
}

/** The extensions a file of this MIME type may carry (for renames); [] for an unknown MIME type. */
export function extensionsOf(mime: string): string[] {
  return [...new Set(ALL_TYPES.filter((type) => type.mime === mime).flatMap((type) => type.extensions))];
}

/** Raster images get a thumbnail and pixel dimensions; SVG and everything else do not get a thumbnail. */
export function isRasterImage(mime: string): boolean {
  return RASTER_MIMES.has(mime);
}

/** The Content-Type header for serving a file of this MIME type (text is always UTF-8 here). */
export function contentTypeOf(mime: string): string {
  return mime.startsWith('text/') || mime === 'application/json' ? `${mime}; charset=utf-8` : mime;
}

// Text means well-formed UTF-8 without NUL or other control characters
// except tab, line feed, form feed and carriage return; a multi-byte
// character cut off at the end of the head is fine.
function decodeText(head: Uint8Array): string | undefined {
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return undefined;
  }
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(decoded) ? undefined : decoded;
}

// An SVG document: optional BOM, XML declaration, comments, processing
// instructions and doctype, then the <svg> root element.
const SVG_PROLOGUE = /^\ufeff?\s*(?:(?:<\?[^]*?\?>|<!--[^]*?-->|<!DOCTYPE[^>[]*(?:\[[^]*?\])?\s*>)\s*)*<svg[\s>/]/i;

function isSvg(textual: string): boolean {
  return SVG_PROLOGUE.test(textual);
}

function shorten(name: string): string {
  return name.length > 80 ? `${name.slice(0, 80)}…` : name;
}
