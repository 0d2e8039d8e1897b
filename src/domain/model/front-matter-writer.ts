// A fast path for the YAML that stringifyFrontMatter writes. `yaml`'s
// stringify builds a Document of nodes and asks each scalar's tag and style
// how to print it: ~0.2-0.25 ms, 3-5 % of a create's CPU. Most front
// matter is a flat map of words, dates, numbers and lists of words, whose
// text this writes directly, byte for byte what
// `YAML.stringify(attributes, { lineWidth: 0 })` writes (yaml 2.x,
// stringify/stringifyString.js and stringifyNumber.js). Whatever it is not
// sure of it leaves to the library: a fallback costs only time, a different
// byte would change files in the content repo's history.

// Text the library writes plain or in double quotes alone, never escaped or
// as a block: printable ASCII and accented Latin letters (no control
// characters, line breaks or odd spaces), starting with a letter or a digit
// (so no indicator, document marker or leading blank).
const TEXT = /^[A-Za-z0-9\u00c0-\u024f][\x20-\x7e\u00c0-\u024f]*$/;
// What makes the library quote such text (plainString): `: ` or ` #` inside, or a blank or `:` at the end.
const NEEDS_QUOTES = /: | #|[ :]$/;
// Everything a YAML 1.2 core reader takes for a number (0x1f, 0o17, 1e3,
// 1.5, 42), which the library quotes, and what YAML 1.1 readers take for
// one (1_000, 12:30, 0b101, and 2024-01-01 as a date), which it does not:
// such text falls back rather than leaning on that difference.
const NUMBER_LIKE = /^[0-9][0-9a-fA-FoOxX_.:+-]*$/;
// Words that read as null or a boolean in YAML 1.2 core or 1.1, in any case; they fall back too.
const SCALAR_WORD = /^(?:null|true|false|yes|no|on|off|y|n)$/i;
// Keys written plain: identifiers. Anything else (quoted keys, or a key over 1024 characters, which the library writes as `? key`) falls back.
const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/**
 * The YAML `YAML.stringify(attributes, { lineWidth: 0 })` returns for a flat
 * map of identifier keys to strings, finite numbers, booleans, null and
 * lists of those; undefined for anything else (the caller asks the library).
 */
export function writeSimpleYaml(attributes: Record<string, unknown>): string | undefined {
  if (Object.getPrototypeOf(attributes) !== Object.prototype) return undefined;
  const keys = Object.keys(attributes);
  // `{}` is written as a flow map; and nothing real has no keys.
  if (keys.length === 0) return undefined;
  // The library writes a list met twice as an anchor and an alias.
  const lists: unknown[] = [];
  let yaml = '';
  for (const key of keys) {
    if (!KEY.test(key) || SCALAR_WORD.test(key)) return undefined;
    const value = attributes[key];
    if (!Array.isArray(value)) {
      const text = scalar(value);
      if (text === undefined) return undefined;
      yaml += `${key}: ${text}\n`;
      continue;
    }
    if (lists.includes(value)) return undefined;
    lists.push(value);
    if (value.length === 0) {
      yaml += `${key}: []\n`;
      continue;
    }
    yaml += `${key}:\n`;
    for (const item of value) {
      const text = scalar(item);
      if (text === undefined) return undefined;
      yaml += `  - ${text}\n`;
    }
  }
  return yaml;
}

// A scalar's text as the library writes it in a block map or list, or undefined.
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return string(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return 'null';
  // stringifyNumber: JSON.stringify's text for a finite number, `-0` for minus zero.
  if (typeof value === 'number' && Number.isFinite(value)) return Object.is(value, -0) ? '-0' : String(value);
  return undefined;
}

function string(value: string): string | undefined {
  // The empty string reads as null when plain; the library quotes it.
  if (value === '') return '""';
  if (!TEXT.test(value) || NUMBER_LIKE.test(value) || SCALAR_WORD.test(value)) return undefined;
  if (!NEEDS_QUOTES.test(value)) return value;
  // Double quotes, as JSON writes them, when no `"` asks for single ones and no `\` needs escaping.
  return value.includes('"') || value.includes('\\') ? undefined : `"${value}"`;
}
