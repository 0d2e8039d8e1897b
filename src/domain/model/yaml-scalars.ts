// The scalars and lines of the YAML the content repo holds, as both line
// readers (front-matter.ts's for flat front matter, block-yaml.ts's for the
// nested files) and js-yaml's schema (yaml-text.ts) resolve them: plain
// scalars exactly like `yaml`'s YAML 1.2 core schema, quoted ones without
// escapes, one-line flow sequences, and the characters and lines that are
// left to js-yaml because YAML's whitespace and escape rules apply to them.

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
export const CORE_SCALARS = [
  { tag: 'tag:yaml.org,2002:null', test: (text: string) => NULL.test(text), construct: (): unknown => null },
  { tag: 'tag:yaml.org,2002:bool', test: (text: string) => BOOL.test(text), construct: (text: string): unknown => text[0] === 't' || text[0] === 'T' },
  { tag: 'tag:yaml.org,2002:int', test: (text: string) => INT_OCT.test(text) || INT.test(text) || INT_HEX.test(text), construct: parseInteger },
  { tag: 'tag:yaml.org,2002:float', test: (text: string) => FLOAT_NAN.test(text) || FLOAT.test(text), construct: parseFloatText },
];

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

// What js-yaml refuses to read at all (its own pattern); `yaml` reads such a file.
export const NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
// Lines of printable ASCII (nearly every file) hold none of that, which this finds faster.
export const ASCII_LINES = /^[\n\x20-\x7e]*$/;
// Tabs, carriage returns and blanks at the end of a line take YAML's whitespace rules, which are js-yaml's to apply.
export const UNSAFE_LINE = /[\t\r]|[^\S\n](?:\n|$)/;
// A line that neither a key nor a list item can hold (what a regex's `.` does not match besides \n and \r): js-yaml reads the file.
export const LINE_SEPARATOR = /[\u2028\u2029]/;
export const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A plain scalar that cannot start or continue any other YAML construct.
const PLAIN = /^(?:[A-Za-z0-9~]|[-+.][0-9.])[A-Za-z0-9 _.:+\/-]*$/;

// An item of a one-line flow sequence and what follows it: a comma (and
// spaces) before the next item, or the closing bracket at the end of the line.
const FLOW_ITEM = /(?:"([^"\\]*)"|'([^']*)'|([^,"'[\]{}]+))(, *|\]$)/y;

// `[]` or `[item, item]` whose items are quoted without escapes or plain.
// A plain item takes no `:` (`[a: b]` is a mapping), no blank at its end
// and no comma-less gap; an empty item (`[a,,b]`, `[a,]`), nesting, a
// comment or anything after the bracket is left to js-yaml.
export function flowSequence(text: string): unknown[] | undefined {
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

// A quoted or plain scalar's value (never undefined, which YAML has not), or undefined when it is neither.
export function quotedOrPlain(text: string): unknown {
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    // Quoted without escapes: `"` and `\\` inside double quotes, `'` inside single ones, are js-yaml's to read.
    const inner = text.slice(1, -1);
    const closed = text.length >= 2 && text[text.length - 1] === quote && !inner.includes(quote);
    return closed && (quote === "'" || !inner.includes('\\')) ? inner : undefined;
  }
  if (!PLAIN.test(text) || text.includes(': ') || text.endsWith(':')) return undefined;
  return plainScalar(text);
}
