// The only user of gray-matter: markdown files with YAML front matter. YAML
// is written with the `yaml` package and read with js-yaml (gray-matter's own
// engine, several times faster on start-up) under a schema that resolves
// plain scalars exactly like `yaml`'s YAML 1.2 core schema: dates stay
// strings, and YAML 1.1 forms (1_000, 12:30, 010 as octal, yes/no) are not
// numbers or booleans, so every file reads back as `yaml` would read it.
import matter from 'gray-matter';
import jsYaml from 'js-yaml';
import YAML from 'yaml';

export interface FrontMatterDocument {
  attributes: Record<string, unknown>;
  body: string;
}

// The patterns of `yaml` 2's core schema (yaml/dist/schema/core), in its order.
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$|^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

function scalarType(tag: string, test: (text: string) => boolean, construct: (text: string) => unknown): jsYaml.Type {
  return new jsYaml.Type(tag, { kind: 'scalar', resolve: (data) => test(data ?? ''), construct: (data) => construct(data ?? '') });
}

const CORE_1_2 = new jsYaml.Schema({
  include: [jsYaml.FAILSAFE_SCHEMA],
  implicit: [
    scalarType('tag:yaml.org,2002:null', (text) => NULL.test(text), () => null),
    scalarType('tag:yaml.org,2002:bool', (text) => BOOL.test(text), (text) => text[0] === 't' || text[0] === 'T'),
    scalarType('tag:yaml.org,2002:int', (text) => INT_OCT.test(text) || INT.test(text) || INT_HEX.test(text), parseInteger),
    scalarType('tag:yaml.org,2002:float', (text) => FLOAT_NAN.test(text) || FLOAT.test(text), parseFloatText),
  ],
});

function parseInteger(text: string): number {
  if (INT_OCT.test(text)) return parseInt(text.slice(2), 8);
  if (INT_HEX.test(text)) return parseInt(text.slice(2), 16);
  return parseInt(text, 10);
}

function parseFloatText(text: string): number {
  if (!FLOAT_NAN.test(text)) return parseFloat(text);
  if (text.slice(-3).toLowerCase() === 'nan') return Number.NaN;
  return text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
}

// What js-yaml refuses (it is stricter in corners, e.g. `a: -`) is read by
// `yaml` as before, so a hand-edited file never becomes unreadable.
function parseYaml(text: string): object {
  let value: unknown;
  try {
    value = jsYaml.load(text, { schema: CORE_1_2 });
  } catch {
    value = YAML.parse(text);
  }
  assertBounded(value);
  return (value ?? {}) as object;
}

// YAML aliases share one parsed node, so a few lines can stand for billions
// of values ("billion laughs") that every later walk (validation, JSON,
// search) would expand. A front matter is refused when walking it visits
// more values, or goes deeper, than any real page needs.
const MAX_VALUES = 100_000;
const MAX_DEPTH = 64;

function assertBounded(root: unknown): void {
  let visited = 0;
  const visit = (value: unknown, depth: number): void => {
    visited += 1;
    if (visited > MAX_VALUES || depth > MAX_DEPTH) {
      throw new Error(`The front matter holds more than ${MAX_VALUES.toLocaleString('en')} values or nests deeper than ${MAX_DEPTH} levels (YAML aliases?).`);
    }
    if (typeof value !== 'object' || value === null) return;
    for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child, depth + 1);
  };
  visit(root, 0);
}

const ENGINES = { yaml: { parse: parseYaml, stringify: (data: object) => YAML.stringify(data) } };

/** Parses a markdown file; throws a plain Error (with cause) when the front matter is not a YAML mapping. */
export function parseFrontMatter(text: string): FrontMatterDocument {
  const parsed = splitYamlFrontMatter(text, parseYaml) ?? matter(text, { engines: ENGINES, language: 'yaml' });
  const attributes: unknown = parsed.data;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) {
    throw new Error('The front matter is not a YAML mapping.');
  }
  // stringifyFrontMatter surrounds the body with one newline on each side.
  return { attributes: attributes as Record<string, unknown>, body: parsed.content.replace(/^\r?\n/, '').replace(/\r?\n$/, '') };
}

/**
 * gray-matter's own reading (parseMatter, same steps and quirks) of a file
 * whose first line is exactly `---`: the shape every file the server writes
 * has. Without gray-matter's per-file overhead (option objects rebuilt three
 * times, a Buffer copy of the text, a cache lookup keyed by the whole text)
 * a start parses its files in half the time. `parse` reads the YAML block.
 * Undefined for anything else, which gray-matter reads: a language after the
 * `---` picks another engine.
 */
export function splitYamlFrontMatter(text: string, parse: (yaml: string) => unknown): { data: unknown; content: string } | undefined {
  const content = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!OPENING_LINE.test(content)) return undefined;
  const rest = content.slice(3);
  const close = rest.indexOf('\n---');
  const block = close === -1 ? rest : rest.slice(0, close);
  // A block of nothing but blanks and comment lines is an empty front matter, not YAML.
  const data = block.replace(/^\s*#[^\n]+/gm, '').trim() === '' ? {} : parse(block);
  if (close === -1) return { data, content: '' };
  let body = rest.slice(close + 4);
  if (body[0] === '\r') body = body.slice(1);
  if (body[0] === '\n') body = body.slice(1);
  return { data, content: body };
}

const OPENING_LINE = /^---\r?\n/;

/** Serializes attributes and body into a markdown file with YAML front matter. */
export function stringifyFrontMatter(document: FrontMatterDocument): string {
  const yaml = YAML.stringify(document.attributes, { lineWidth: 0 });
  const body = document.body === '' ? '' : `\n${document.body}\n`;
  return `---\n${yaml}---\n${body}`;
}
