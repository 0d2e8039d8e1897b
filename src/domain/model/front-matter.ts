// The only user of gray-matter: markdown files with YAML front matter, read
// as every YAML file of the repo is (yaml-text.ts), with a line reader for
// the flat maps the server writes in front of it.
import { createRequire } from 'node:module';
import type matterModule from 'gray-matter';
import { writeSimpleYaml } from './front-matter-writer.ts';
import { assertBounded, MAX_YAML_VALUES, readYaml, writeYaml } from './yaml-text.ts';
import { ASCII_LINES, flowSequence, isPlainKey, KEY, LINE_SEPARATOR, NON_PRINTABLE, quotedOrPlain, UNSAFE_LINE } from './yaml-scalars.ts';

// gray-matter loads with the first front matter that needs it
// (synchronously, like sanitize-html): the files the server writes and
// hand-written ones like the seeded posts never do.
const require = createRequire(import.meta.url);
let matter: typeof matterModule | undefined;

export interface FrontMatterDocument {
  attributes: Record<string, unknown>;
  body: string;
}

// A front matter block: the line reader's when it reads it, else readYaml's.
function parseYaml(text: string): object {
  const simple = readSimpleYaml(text);
  // The line reader makes no aliases and nests two levels at most: what it reads holds fewer values than the text has characters.
  if (simple !== undefined) return text.length < MAX_YAML_VALUES ? simple : assertBounded(simple);
  return (readYaml(text) ?? {}) as object;
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
  // Printable ASCII lines (nearly every file) hold no tab or carriage
  // return, so of UNSAFE_LINE only a blank ending a line is left to find,
  // which each line's last character tells without another pass.
  const ascii = ASCII_LINES.test(text);
  if (!ascii && (NON_PRINTABLE.test(text) || UNSAFE_LINE.test(text) || LINE_SEPARATOR.test(text))) return undefined;
  // Lines are cut out with indexOf rather than split() and regex matches: a
  // start reads ten thousand files of fifteen lines, and the arrays those
  // made were a quarter of everything it allocated.
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const lineStart = start;
    start = end + 1;
    if (end === lineStart) continue;
    if (ascii && text.charCodeAt(end - 1) === SPACE) return undefined;
    if (text.startsWith(LIST_ITEM, lineStart)) {
      // `  - ` then something: an item of the list above it.
      const value = list && end > lineStart + LIST_ITEM.length ? quotedOrPlain(text.slice(lineStart + LIST_ITEM.length, end)) : undefined;
      if (!list || value === undefined) return undefined;
      list.items.push(value);
      result[list.key] = list.items;
      continue;
    }
    // `key:` alone, or `key: value` with something after the blank.
    const colon = text.indexOf(':', lineStart);
    if (colon === -1 || colon >= end) return undefined;
    const hasValue = colon + 1 < end;
    if (hasValue && (text.charCodeAt(colon + 1) !== SPACE || colon + 2 === end)) return undefined;
    const key = text.slice(lineStart, colon);
    if (!KEY.test(key) || Object.hasOwn(result, key) || !isPlainKey(key)) return undefined;
    list = undefined;
    keys += 1;
    if (!hasValue) {
      list = { key, items: [] };
      result[key] = null;
      continue;
    }
    const valueText = text.slice(colon + 2, end);
    const value = valueText[0] === '[' ? flowSequence(valueText) : quotedOrPlain(valueText);
    if (value === undefined) return undefined;
    result[key] = value;
  }
  // A document without a key is not a mapping: js-yaml says what it is.
  return keys > 0 ? result : undefined;
}

const LIST_ITEM = '  - ';
const SPACE = 0x20;

const ENGINES = { yaml: { parse: parseYaml, stringify: writeYaml } };
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
  // A first line of `---` alone (every file the server writes) names no language, which needs no match.
  const language = text.startsWith('---\n') ? '' : (FRONT_MATTER_LANGUAGE.exec(text)?.[1].trim().toLowerCase() ?? '');
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
  const yaml = writeSimpleYaml(document.attributes) ?? writeYaml(document.attributes);
  const body = document.body === '' ? '' : `\n${document.body}\n`;
  return `---\n${yaml}---\n${body}`;
}
