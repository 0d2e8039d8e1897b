// What the content repo holds about a media file (DESIGN.md "Data root"): one
// small YAML document per file at {ws}/media/{filename}.yaml, and the
// workspace's category list at {ws}/media/_categories.yaml. The binary itself
// lives outside git (storage/media-store.ts).
import { parseCategory } from './categories.ts';
import { isValidMediaFilename } from './file-names.ts';
import { isRasterImage } from './media-types.ts';
import { readYaml, writeYaml } from '../model/yaml-text.ts';

/** Who may fetch a file's URL: anyone, or only readers with `media.read`. */
export const MEDIA_VISIBILITIES = ['public', 'private'] as const;
export type MediaVisibility = (typeof MEDIA_VISIBILITIES)[number];

/** The stored metadata of one media file (the media item without its URLs). */
export interface MediaRecord {
  filename: string;
  /** The name the file was uploaded with, for display. */
  name: string;
  mime: string;
  /** Bytes; 0 when the file does not say (written by hand), as no upload is empty. */
  size: number;
  /**
   * The SHA-256 of the bytes (64 lowercase hex digits), written at upload: the
   * file's validator on every node (media-validators.ts). Null in records
   * written before it existed or by hand.
   */
  sha256: string | null;
  width: number | null;
  height: number | null;
  category: string;
  alt: string;
  title: string;
  visibility: MediaVisibility;
  uploaded_by: string | null;
  uploaded_at: string | null;
}

// Starts with "_", which no media file name can, so it never collides with `{filename}.yaml`.
const CATEGORIES_FILE = '_categories.yaml';

/** Whether a file has a thumbnail: raster images whose size could be read (corrupt ones and SVG have none). */
export function hasThumbnail(record: Pick<MediaRecord, 'mime' | 'width'>): boolean {
  return isRasterImage(record.mime) && record.width !== null;
}

/** The folder of a workspace's media metadata in the content repo. */
export function mediaDir(workspace: string): string {
  return `${workspace}/media`;
}

/** The metadata file of one media file. */
export function mediaRecordPath(workspace: string, filename: string): string {
  return `${mediaDir(workspace)}/${filename}.yaml`;
}

/** The repo folder of the public files' copies for sites built from the repo: `{ws}/public/media` (docs/static-sites.md). */
export function mediaCopyDir(workspace: string): string {
  return `${workspace}/public/media`;
}

/** The repo path of a public file's copy: `{ws}/public/media/{filename}`. */
export function mediaCopyPath(workspace: string, filename: string): string {
  return `${mediaCopyDir(workspace)}/${filename}`;
}

/** The file holding a workspace's category list. */
export function categoriesPath(workspace: string): string {
  return `${mediaDir(workspace)}/${CATEGORIES_FILE}`;
}

/** The media file name a repo path holds metadata for, or undefined when it is not a metadata file. Throws nothing. */
export function filenameOfRecordPath(workspace: string, path: string): string | undefined {
  const prefix = `${mediaDir(workspace)}/`;
  if (!path.startsWith(prefix) || !path.endsWith('.yaml')) return undefined;
  const filename = path.slice(prefix.length, -'.yaml'.length);
  return isValidMediaFilename(filename) ? filename : undefined;
}

/**
 * Serializes a record for its YAML file (the file name is the record's key
 * and not repeated). An unknown size (0) is left out, as a file written by
 * hand left it, rather than claimed.
 */
export function recordToYaml(record: MediaRecord): string {
  const { filename: _filename, ...fields } = record;
  if (fields.size > 0) return writeYaml(fields);
  const { size: _size, ...withoutSize } = fields;
  return writeYaml(withoutSize);
}

/**
 * Parses a metadata file written by the server or by hand. Missing text
 * fields become '', missing numbers null. Throws an Error naming the problem
 * when the file cannot be used (not a mapping, wrong types, unknown visibility, bad category).
 */
export function recordFromYaml(filename: string, text: string): MediaRecord {
  const parsed = readYaml(text) ?? {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The media metadata must be a YAML mapping.');
  const raw = parsed as Record<string, unknown>;
  const visibility = raw.visibility ?? 'public';
  if (visibility !== 'public' && visibility !== 'private') throw new Error('The visibility must be "public" or "private".');
  return {
    filename,
    name: optionalText(raw.name, 'name') || filename,
    mime: optionalText(raw.mime, 'mime') || 'application/octet-stream',
    size: count(raw.size, 'size', 0) ?? 0,
    sha256: sha256(raw.sha256),
    width: count(raw.width, 'width', 1),
    height: count(raw.height, 'height', 1),
    category: parseCategory(optionalText(raw.category, 'category'), 'category'),
    alt: optionalText(raw.alt, 'alt'),
    title: optionalText(raw.title, 'title'),
    visibility,
    uploaded_by: optionalText(raw.uploaded_by, 'uploaded_by') || null,
    uploaded_at: date(raw.uploaded_at),
  };
}

/** Serializes the category list. */
export function categoriesToYaml(categories: string[]): string {
  return writeYaml(categories);
}

/**
 * Parses the category list, written in the " / " form; entries that are not
 * strings or not valid category paths are dropped. Throws a plain Error when it is not a list.
 */
export function categoriesFromYaml(text: string): string[] {
  const parsed = readYaml(text) ?? [];
  if (!Array.isArray(parsed)) throw new Error('The category list must be a YAML sequence.');
  const categories: string[] = [];
  for (const item of parsed) {
    if (typeof item !== 'string') continue;
    try {
      const category = parseCategory(item, 'category');
      if (category !== '') categories.push(category);
    } catch {
      continue;
    }
  }
  return categories;
}

function optionalText(value: unknown, key: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new Error(`The ${key} must be a string.`);
  return value;
}

function count(value: unknown, key: string, min: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw new Error(`The ${key} must be a whole number of at least ${min}.`);
  return value;
}

function sha256(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !/^[0-9a-fA-F]{64}$/.test(value)) throw new Error('The sha256 must be 64 hexadecimal digits.');
  return value.toLowerCase();
}

function date(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'string' || value === '') return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
