// A URL key from a title, the way the server makes one (lowercase ASCII,
// hyphens, accents dropped), so the editor can show it while typing. The
// server has the last word: it makes the slug unique on create.

/** "Über uns!" → "uber-uns". */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
