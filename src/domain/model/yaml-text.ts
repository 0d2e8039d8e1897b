// How the content repo's YAML files are read and written: type files,
// workspace.yaml, media metadata and the front matter the line reader of
// front-matter.ts leaves. What block-yaml.ts's line reader takes (the shapes
// the server writes) it reads; the rest is read with js-yaml under a schema
// that resolves plain scalars exactly like `yaml`'s YAML 1.2 core schema (dates
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
import { readBlockYaml } from './block-yaml.ts';
import { CORE_SCALARS } from './yaml-scalars.ts';

const require = createRequire(import.meta.url);
let jsYamlCore: ((text: string) => unknown) | undefined;
let yamlPackage: typeof yamlModule | undefined;

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

/**
 * A YAML document's value (undefined or null for an empty one). Throws the
 * `yaml` package's error for text that is not YAML, and a plain Error for a
 * document too big to walk (assertBounded).
 */
export function readYaml(text: string): unknown {
  let value: unknown = readBlockYaml(text);
  if (value !== undefined) return assertBounded(value);
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

