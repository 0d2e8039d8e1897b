// A URL key from a title, made by the same library as the server's slugs
// (lowercase ASCII, hyphens, transliterated: "Über uns" → "ueber-uns"), so
// what the editor shows while typing is what the server would make.
import slugifyText from '@sindresorhus/slugify';

/** "Über uns!" → "ueber-uns" (the server also shortens long ones and makes them unique). */
export function slugify(text: string): string {
  return slugifyText(text.normalize('NFKC'), { decamelize: false });
}
