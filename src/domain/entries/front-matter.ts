// The only user of gray-matter: markdown files with YAML front matter. YAML is
// read and written with the `yaml` package (core schema) so that dates stay
// strings exactly as written instead of turning into Date objects.
import matter from 'gray-matter';
import YAML from 'yaml';

export interface FrontMatterDocument {
  attributes: Record<string, unknown>;
  body: string;
}

const ENGINES = { yaml: { parse: (text: string) => (YAML.parse(text) ?? {}) as object, stringify: (data: object) => YAML.stringify(data) } };

/** Parses a markdown file; throws a plain Error (with cause) when the front matter is not a YAML mapping. */
export function parseFrontMatter(text: string): FrontMatterDocument {
  const parsed = matter(text, { engines: ENGINES, language: 'yaml' });
  const attributes: unknown = parsed.data;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) {
    throw new Error('The front matter is not a YAML mapping.');
  }
  // stringifyFrontMatter surrounds the body with one newline on each side.
  return { attributes: attributes as Record<string, unknown>, body: parsed.content.replace(/^\r?\n/, '').replace(/\r?\n$/, '') };
}

/** Serializes attributes and body into a markdown file with YAML front matter. */
export function stringifyFrontMatter(document: FrontMatterDocument): string {
  const yaml = YAML.stringify(document.attributes, { lineWidth: 0 });
  const body = document.body === '' ? '' : `\n${document.body}\n`;
  return `---\n${yaml}---\n${body}`;
}
