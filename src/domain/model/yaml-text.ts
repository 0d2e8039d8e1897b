// How the content repo's YAML files are read and written: type files,
// workspace.yaml, media metadata and the front matter the line reader of
// front-matter.ts leaves. They are read with js-yaml under a schema that
// resolves plain scalars exactly like `yaml`'s YAML 1.2 core schema (dates
// stay strings; YAML 1.1 forms such as 1_000, 12:30, 010 as octal and yes/no
// are not numbers or booleans), so every file reads back as `yaml` would read
// it; what js-yaml refuses (it is stricter in corners, e.g. `a: -`) is read by
// `yaml`, whose error names what is wrong with a broken file. They are
// written with `yaml`.
//
// Both load with their first use (synchronously): a start reads type files,
// workspace files and media metadata but writes nothing, and loading `yaml`
// with its first parse cost every start more than js-yaml does.
import { createRequire } from 'node:module';
import type jsYamlModule from 'js-yaml';
import type yamlModule from 'yaml';

const require = createRequire(import.meta.url);
let jsYamlCore: ((text: string) => unknown) | undefined;
let yamlPackage: typeof yamlModule | undefined;

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

/** The value of a plain (unquoted) scalar, resolved by the core schema. */
export function plainScalar(text: string): unknown {
  // No null, boolean or number holds a colon: dates (several in each file) skip the seven patterns.
  if (text !== '' && (!SCALAR_START.test(text) || text.includes(':'))) return text;
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

/** Whether a mapping key is read as the very string it is: not one that resolves to null or a boolean, nor one js-yaml treats specially. */
export function isPlainKey(key: string): boolean {
  // Only a key of four or five characters can spell null or a boolean (besides `` and `~`): most keys of a front matter skip the patterns.
  if (key.length === 4 || key.length === 5) return !NULL.test(key) && !BOOL.test(key);
  return key !== '' && key !== '~' && key !== '__proto__';
}

/**
 * A YAML document's value (undefined or null for an empty one). Throws the
 * `yaml` package's error for text that is not YAML, and a plain Error for a
 * document too big to walk (assertBounded).
 */
export function readYaml(text: string): unknown {
  let value: unknown;
  try {
    value = loadJsYaml(text);
  } catch {
    yamlPackage ??= require('yaml') as typeof yamlModule;
    value = yamlPackage.parse(text);
  }
  return assertBounded(value);
}

/** A value as a YAML document, each string on one line whatever its length. */
export function writeYaml(value: unknown): string {
  yamlPackage ??= require('yaml') as typeof yamlModule;
  return yamlPackage.stringify(value, { lineWidth: 0 });
}

// YAML aliases share one parsed node, so a few lines can stand for billions
// of values ("billion laughs") that every later walk (validation, JSON,
// search) would expand. A document is refused when walking it visits
// more values, or goes deeper, than any real page needs.
export const MAX_YAML_VALUES = 100_000;
const MAX_DEPTH = 64;

/** `root`, once walking it visited at most MAX_YAML_VALUES values no deeper than MAX_DEPTH; throws a plain Error otherwise. */
export function assertBounded<T>(root: T): T {
  let visited = 0;
  const visit = (value: unknown, depth: number): void => {
    visited += 1;
    if (visited > MAX_YAML_VALUES || depth > MAX_DEPTH) {
      throw new Error(`The YAML holds more than ${MAX_YAML_VALUES.toLocaleString('en')} values or nests deeper than ${MAX_DEPTH} levels (YAML aliases?).`);
    }
    if (typeof value !== 'object' || value === null) return;
    for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child, depth + 1);
  };
  visit(root, 0);
  return root;
}

