// The only user of gray-matter: markdown files with YAML front matter. YAML
// is written with the `yaml` package and read with js-yaml (gray-matter's own
// engine, several times faster on start-up) under a schema that resolves
// plain scalars exactly like `yaml`'s YAML 1.2 core schema: dates stay
// strings, and YAML 1.1 forms (1_000, 12:30, 010 as octal, yes/no) are not
// numbers or booleans, so every file reads back as `yaml` would read it.
import { createRequire } from 'node:module';
import type matterModule from 'gray-matter';
import type jsYamlModule from 'js-yaml';
import YAML from 'yaml';
import { writeSimpleYaml } from './front-matter-writer.ts';

// js-yaml and gray-matter load with the first front matter that needs them
// (synchronously, like sanitize-html): the files the server writes and
// hand-written ones like the seeded posts never do, and loading both cost
// every start ~40 ms.
const require = createRequire(import.meta.url);
let jsYamlCore: ((text: string) => unknown) | undefined;
let matter: typeof matterModule | undefined;

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

// How a plain (unquoted) scalar resolves: the first of these whose test
// passes makes its value; none passing leaves the text a string.
const CORE_SCALARS = [
  { tag: 'tag:yaml.org,2002:null', test: (text: string) => NULL.test(text), construct: (): unknown => null },
  { tag: 'tag:yaml.org,2002:bool', test: (text: string) => BOOL.test(text), construct: (text: string): unknown => text[0] === 't' || text[0] === 'T' },
  { tag: 'tag:yaml.org,2002:int', test: (text: string) => INT_OCT.test(text) || INT.test(text) || INT_HEX.test(text), construct: parseInteger },
  { tag: 'tag:yaml.org,2002:float', test: (text: string) => FLOAT_NAN.test(text) || FLOAT.test(text), construct: parseFloatText },
];

// js-yaml's load under a schema of CORE_SCALARS, made on first use.
function loadJsYaml(text: string): unknown {
  if (jsYamlCore === undefined) {
    const jsYaml = require('js-yaml') as typeof jsYamlModule;
    const schema = new jsYaml.Schema({
      include: [jsYaml.FAILSAFE_SCHEMA],
      implicit: CORE_SCALARS.map(({ tag, test, construct }) => new jsYaml.Type(tag, { kind: 'scalar', resolve: (data) => test(data ?? ''), construct: (data) => construct(data ?? '') })),
    });
    jsYamlCore = (yaml) => jsYaml.load(yaml, { schema });
  }
  return jsYamlCore(text);
}

function plainScalar(text: string): unknown {
  if (text !== '' && !SCALAR_START.test(text)) return text;
  for (const { test, construct } of CORE_SCALARS) if (test(text)) return construct(text);
  return text;
}

// How every null, boolean and number of CORE_SCALARS starts: other words are strings without testing each pattern.
const SCALAR_START = /^[~nNtTfF0-9+.-]/;

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
  const simple = readSimpleYaml(text);
  // The line reader makes no aliases and nests two levels at most: what it reads holds fewer values than the text has characters.
  if (simple !== undefined && text.length < MAX_VALUES) return simple;
  const value = simple ?? readYaml(text);
  assertBounded(value);
  return (value ?? {}) as object;
}

/** How a YAML block reads when the line reader (readSimpleYaml) leaves it: js-yaml, or `yaml` where js-yaml refuses. */
export function readYaml(text: string): unknown {
  try {
    return loadJsYaml(text);
  } catch {
    return YAML.parse(text);
  }
}

/**
 * Reads the YAML the server writes (stringifyFrontMatter): one `key: value`
 * per line, a list as `  - item` lines under a `key:`, each value plain or
 * quoted without escapes, resolved by the same core-schema rules; and what
 * hand-written files add to it, a list of such scalars in flow style on its
 * key's line (`tags: [a, "b c"]`). Undefined for anything else (nesting,
 * other flow style, escapes, comments, multi-line scalars, odd keys), which
 * js-yaml reads. js-yaml spent most of a start's parsing on these few
 * shapes; line by line they cost a fraction of it.
 */
export function readSimpleYaml(text: string): Record<string, unknown> | undefined {
  const result: Record<string, unknown> = {};
  // The list under the last `key:` line without a value, while items may follow it.
  let list: { key: string; items: unknown[] } | undefined;
  let keys = 0;
  if ((!ASCII_LINES.test(text) && NON_PRINTABLE.test(text)) || UNSAFE_LINE.test(text)) return undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const item = line.startsWith('  - ') ? LIST_ITEM.exec(line) : null;
    if (item) {
      const value = list && quotedOrPlain(item[1]);
      if (!list || value === undefined) return undefined;
      list.items.push(value);
      result[list.key] = list.items;
      continue;
    }
    const pair = KEY_VALUE.exec(line);
    if (!pair || Object.hasOwn(result, pair[1]) || !isPlainKey(pair[1])) return undefined;
    list = undefined;
    keys += 1;
    if (pair[2] === undefined) {
      list = { key: pair[1], items: [] };
      result[pair[1]] = null;
      continue;
    }
    const value = pair[2][0] === '[' ? flowSequence(pair[2]) : quotedOrPlain(pair[2]);
    if (value === undefined) return undefined;
    result[pair[1]] = value;
  }
  // A document without a key is not a mapping: js-yaml says what it is.
  return keys > 0 ? result : undefined;
}

// What js-yaml refuses to read at all (its own pattern); `yaml` reads such a file.
const NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
// Lines of printable ASCII (nearly every file) hold none of that, which this finds faster.
const ASCII_LINES = /^[\n\x20-\x7e]*$/;
// Tabs, carriage returns and blanks at the end of a line take YAML's whitespace rules, which are js-yaml's to apply.
const UNSAFE_LINE = /[\t\r]|[^\S\n](?:\n|$)/;
const LIST_ITEM = /^ {2}- (.+)$/;
const KEY_VALUE = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.+))?$/;
const DOUBLE_QUOTED = /^"([^"\\]*)"$/;
const SINGLE_QUOTED = /^'([^']*)'$/;
// A plain scalar that cannot start or continue any other YAML construct.
const PLAIN = /^(?:[A-Za-z0-9~]|[-+.][0-9.])[A-Za-z0-9 _.:+\/-]*$/;

// An item of a one-line flow sequence and what follows it: a comma (and
// spaces) before the next item, or the closing bracket at the end of the line.
const FLOW_ITEM = /(?:"([^"\\]*)"|'([^']*)'|([^,"'[\]{}]+))(, *|\]$)/y;

// `[]` or `[item, item]` whose items are quoted without escapes or plain.
// A plain item takes no `:` (`[a: b]` is a mapping), no blank at its end
// and no comma-less gap; an empty item (`[a,,b]`, `[a,]`), nesting, a
// comment or anything after the bracket is left to js-yaml.
function flowSequence(text: string): unknown[] | undefined {
  if (text === '[]') return [];
  const items: unknown[] = [];
  FLOW_ITEM.lastIndex = 1;
  for (let match = FLOW_ITEM.exec(text); match; match = FLOW_ITEM.exec(text)) {
    const [, double, single, plain, after] = match;
    if (plain !== undefined && (plain.includes(':') || plain.endsWith(' ') || !PLAIN.test(plain))) return undefined;
    items.push(plain === undefined ? (double ?? single) : plainScalar(plain));
    if (after === ']') return items;
  }
  return undefined;
}

// A key YAML reads as the very string it is: not one that resolves to null or a boolean, nor one js-yaml treats specially.
function isPlainKey(key: string): boolean {
  return !NULL.test(key) && !BOOL.test(key) && key !== '__proto__';
}

// A quoted or plain scalar's value (never undefined, which YAML has not), or undefined when it is neither.
function quotedOrPlain(text: string): unknown {
  const quoted = text[0] === '"' ? DOUBLE_QUOTED.exec(text) : text[0] === "'" ? SINGLE_QUOTED.exec(text) : null;
  if (quoted) return quoted[1];
  if (!PLAIN.test(text) || text.includes(': ') || text.endsWith(':')) return undefined;
  return plainScalar(text);
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
// `---js` would have gray-matter run the block as JavaScript (its built-in
// engine evaluates it): anyone who can push a content file could run code on
// the server. Only YAML is read, whatever the opening line names.
const FRONT_MATTER_LANGUAGE = /^\uFEFF?---([^\r\n]*)/;

function readWithGrayMatter(text: string): { data: unknown; content: string } {
  matter ??= require('gray-matter') as typeof matterModule;
  return matter(text, { engines: ENGINES, language: 'yaml' });
}

/** Parses a markdown file; throws a plain Error (with cause) when the front matter is not a YAML mapping or names another language. */
export function parseFrontMatter(text: string): FrontMatterDocument {
  const language = FRONT_MATTER_LANGUAGE.exec(text)?.[1].trim().toLowerCase() ?? '';
  if (language !== '' && language !== 'yaml' && language !== 'yml') {
    throw new Error(`The front matter is marked as "${language.slice(0, 20)}"; only YAML front matter (a first line of ---) is read.`);
  }
  const parsed = splitYamlFrontMatter(text, parseYaml) ?? readWithGrayMatter(text);
  const attributes: unknown = parsed.data;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) {
    throw new Error('The front matter is not a YAML mapping.');
  }
  // stringifyFrontMatter surrounds the body with one newline on each side.
  return { attributes: attributes as Record<string, unknown>, body: withoutSurroundingNewlines(parsed.content) };
}

// `text` without one \n or \r\n at its start, then one at its end: string
// ends rather than a regex, which would try every position of a long body.
function withoutSurroundingNewlines(text: string): string {
  let body = text;
  if (body.startsWith('\n')) body = body.slice(1);
  else if (body.startsWith('\r\n')) body = body.slice(2);
  if (body.endsWith('\r\n')) body = body.slice(0, -2);
  else if (body.endsWith('\n')) body = body.slice(0, -1);
  return body;
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
  const data = isBlankOrComments(block) ? {} : parse(block);
  if (close === -1) return { data, content: '' };
  let body = rest.slice(close + 4);
  if (body[0] === '\r') body = body.slice(1);
  if (body[0] === '\n') body = body.slice(1);
  return { data, content: body };
}

const OPENING_LINE = /^---\r?\n/;

// Whether nothing is left of `block` once comment lines are taken out. A
// block whose first character that is not blank is not `#` keeps that
// character, so only one that starts with a comment needs the replace.
function isBlankOrComments(block: string): boolean {
  const first = block.search(/\S/);
  return first === -1 || (block[first] === '#' && block.replace(/^\s*#[^\n]+/gm, '').trim() === '');
}

/** Serializes attributes and body into a markdown file with YAML front matter. */
export function stringifyFrontMatter(document: FrontMatterDocument): string {
  // The library's own text, written directly for the flat maps most entries are (front-matter-writer.ts).
  const yaml = writeSimpleYaml(document.attributes) ?? YAML.stringify(document.attributes, { lineWidth: 0 });
  const body = document.body === '' ? '' : `\n${document.body}\n`;
  return `---\n${yaml}---\n${body}`;
}
