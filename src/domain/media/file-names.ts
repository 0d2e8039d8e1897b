// Media file names: what a stored name may look like, how an uploaded file's
// name is made safe (lowercase ASCII words joined by hyphens, plus the
// extension), and how it is made unique in a workspace with -2, -3, ….
import { MEDIA_FILENAME_PATTERN } from '../model/field-values.ts';
import { loadSlugifyText } from '../model/slug.ts';

/** The longest base name (before the extension) made from an uploaded file's name. */
export const MAX_BASE_LENGTH = 100;

/** The base name used when nothing usable is left of the original name. */
export const FALLBACK_BASE = 'file';

// An extension is 1–5 letters or digits with at least one letter, so
// "photo 2024.05.01" has none and "clip.mp4" has "mp4".
const EXTENSION = /\.([A-Za-z0-9]{1,5})$/;

/**
 * Whether `name` is a valid stored media file name: the media field pattern
 * (lowercase letters, digits, ".", "_", "-", at most 200 characters, starting
 * with a letter or digit), no "..", and an extension. Throws nothing.
 */
export function isValidMediaFilename(name: string): boolean {
  return typeof name === 'string' && MEDIA_FILENAME_PATTERN.test(name) && !name.includes('..') && extensionOf(name) !== undefined;
}

/** The lowercased extension of a name, or undefined when it has none. Throws nothing. */
export function extensionOf(name: string): string | undefined {
  const match = EXTENSION.exec(name);
  return match && /[A-Za-z]/.test(match[1]) ? match[1].toLowerCase() : undefined;
}

/** An uploaded file's name made safe: the base name, and the extension it carried. */
export interface SafeNameParts {
  base: string;
  extension: string | undefined;
}

/**
 * Splits an uploaded file's original name: the last path segment (both
 * separators), its lowercased extension, and the rest transliterated to
 * lowercase ASCII words joined by hyphens, at most 100 characters, or `file`.
 * Rejects only when the slug library cannot be loaded.
 */
export async function safeNameParts(originalName: string): Promise<SafeNameParts> {
  const slugifyText = await loadSlugifyText();
  const last = (originalName.split(/[/\\]/).pop() ?? '').normalize('NFKC');
  const extension = extensionOf(last);
  const stem = extension === undefined ? last : last.slice(0, -(extension.length + 1));
  // Defensive: keep the result inside the pattern whatever the library returns.
  const slug = slugifyText(stem, { decamelize: false }).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return { base: slug === '' ? FALLBACK_BASE : cutAtHyphen(slug, MAX_BASE_LENGTH), extension };
}

/**
 * The first of `base.ext`, `base-2.ext`, `base-3.ext`, … that `isTaken` does
 * not claim. Throws nothing.
 */
export async function uniqueFilename(base: string, extension: string, isTaken: (name: string) => boolean | Promise<boolean>): Promise<string> {
  for (let counter = 1; ; counter++) {
    const name = counter === 1 ? `${base}.${extension}` : `${base}-${counter}.${extension}`;
    if (!(await isTaken(name))) return name;
  }
}

/** A display name kept as uploaded, without control or direction-changing characters, at most 255 characters. Throws nothing. */
export function displayName(originalName: string): string {
  const clean = originalName.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu, '').trim();
  return [...clean].slice(0, 255).join('');
}

function cutAtHyphen(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const head = slug.slice(0, max);
  const lastHyphen = head.lastIndexOf('-');
  return (lastHyphen > 0 && slug[max] !== '-' ? head.slice(0, lastHyphen) : head).replace(/-+$/, '');
}
