// Slug rules: how a slug is made from a title, what a valid written slug is,
// and how collisions in a collection are resolved with -2, -3, … suffixes.
import type slugifyModule from '@sindresorhus/slugify';
import { once } from '../../lib/once.ts';

/** The pattern of a slug the server writes or accepts on write. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The longest slug accepted on write. */
export const MAX_SLUG_LENGTH = 120;

/** The longest slug generated from a title (a suffix may add a few characters). */
export const MAX_GENERATED_SLUG_LENGTH = 80;

/** The slug used when a title yields no ASCII letters or digits. */
export const FALLBACK_SLUG = 'entry';

/**
 * The pattern of an `{identifier}` path segment (an entry slug or id). Wider
 * than SLUG_PATTERN because files committed by hand may use other slugs.
 */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * @sindresorhus/slugify, loaded with the first slug made from free text: its
 * transliteration tables cost every start ~40 ms of CPU before its first
 * answer, and only writes make slugs (docs/architecture.md, "Loaded on first use").
 */
export const loadSlugifyText = once(async (): Promise<typeof slugifyModule> => (await import('@sindresorhus/slugify')).default);

/**
 * A slug made from free text: transliterated to lowercase ASCII, words joined
 * by hyphens, at most 80 characters (cut at a hyphen where possible), or
 * `entry` when nothing is left. Used for slugs generated from titles. Rejects
 * only when the library cannot be loaded.
 */
export async function slugify(text: string): Promise<string> {
  const slugifyText = await loadSlugifyText();
  // NFKC first so full-width and compatibility forms become plain letters.
  const raw = slugifyText(text.normalize('NFKC'), { decamelize: false });
  // Defensive: keep the output inside SLUG_PATTERN whatever the library returns.
  const clean = raw.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const cut = truncateAtHyphen(clean, MAX_GENERATED_SLUG_LENGTH);
  return cut === '' ? FALLBACK_SLUG : cut;
}

function truncateAtHyphen(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const head = slug.slice(0, max);
  // A hyphen right after the cut means the cut already falls on a word boundary.
  if (slug[max] === '-') return head.replace(/-+$/, '');
  const lastHyphen = head.lastIndexOf('-');
  return lastHyphen > 0 ? head.slice(0, lastHyphen) : head;
}

/**
 * Whether `s` is a slug the server accepts on write: lowercase letters and
 * digits in hyphen-separated groups, at most 120 characters. Throws nothing.
 */
export function isValidSlug(s: string): boolean {
  return s.length <= MAX_SLUG_LENGTH && SLUG_PATTERN.test(s);
}

/**
 * The first of `base`, `base-2`, `base-3`, … that `isTaken` does not claim, so
 * a generated slug never collides within a collection. The base is shortened
 * when a suffix would push it past 120 characters. Throws nothing.
 */
export function uniqueSlug(base: string, isTaken: (s: string) => boolean): string {
  if (!isTaken(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const stem = base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '');
    const candidate = `${stem}${suffix}`;
    if (!isTaken(candidate)) return candidate;
  }
}
