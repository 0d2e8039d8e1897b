// A line reader for the nested YAML the server writes with `yaml` (type
// files, workspace.yaml, media metadata): block mappings and sequences by
// indentation, each value a scalar of yaml-scalars.ts, `[]`, `{}` or a
// one-line flow sequence. Every start reads these files; with this reader it
// does not load js-yaml (and the esprima parser js-yaml 3 loads with it, ~50
// ms of CPU before the first answer), which reads whatever this one leaves.
import { ASCII_LINES, flowSequence, isPlainKey, KEY, LINE_SEPARATOR, NON_PRINTABLE, quotedOrPlain, UNSAFE_LINE } from './yaml-scalars.ts';

interface Line {
  indent: number;
  text: string;
}

// Thrown inside the reader for anything it leaves to js-yaml; never leaves this module.
const LEAVE = Symbol('left to js-yaml');

/**
 * The value of a document that is a block mapping of such lines, read as
 * `yaml` and js-yaml read it; undefined for anything else (comments,
 * anchors, tags, block scalars, multi-line plain scalars, escapes, flow
 * mappings, odd keys or indentation, a key twice, a document that is not a
 * mapping), which js-yaml reads.
 */
export function readBlockYaml(text: string): Record<string, unknown> | undefined {
  if (!ASCII_LINES.test(text) && (NON_PRINTABLE.test(text) || LINE_SEPARATOR.test(text))) return undefined;
  if (UNSAFE_LINE.test(text)) return undefined;
  const lines: Line[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const indent = line.search(/[^ ]/);
    lines.push({ indent, text: line.slice(indent) });
  }
  if (lines.length === 0 || lines[0].indent !== 0) return undefined;
  try {
    const reader = new BlockReader(lines);
    const document = reader.mapping(0);
    return reader.atEnd() ? document : undefined;
  } catch (error) {
    if (error === LEAVE) return undefined;
    throw error;
  }
}

class BlockReader {
  private next = 0;

  constructor(private readonly lines: Line[]) {}

  atEnd(): boolean {
    return this.next === this.lines.length;
  }

  // The mapping whose keys stand at `indent`, from the current line on; it ends at a line indented less.
  mapping(indent: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    while (this.next < this.lines.length) {
      const line = this.lines[this.next];
      if (line.indent < indent) break;
      if (line.indent > indent) throw LEAVE;
      const colon = line.text.indexOf(':');
      if (colon === -1) throw LEAVE;
      const key = line.text.slice(0, colon);
      if (!KEY.test(key) || !isPlainKey(key) || Object.hasOwn(result, key)) throw LEAVE;
      const rest = line.text.slice(colon + 1);
      this.next += 1;
      if (rest === '') result[key] = this.nested(indent);
      else if (rest[0] === ' ' && rest.length > 1) result[key] = scalarOrFlow(rest.slice(1));
      else throw LEAVE;
    }
    return result;
  }

  // The value of a `key:` line at `indent`: a block below it (a sequence may stand at the key's own indent), or null.
  private nested(indent: number): unknown {
    const line = this.lines[this.next] as Line | undefined;
    if (line === undefined || line.indent < indent) return null;
    if (isItem(line.text) && line.indent >= indent) return this.sequence(line.indent);
    if (line.indent === indent) return null;
    return this.mapping(line.indent);
  }

  // The sequence whose `- ` items stand at `indent`; an item is a scalar or a mapping that starts on its line.
  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    while (this.next < this.lines.length) {
      const line = this.lines[this.next];
      if (line.indent < indent || (line.indent === indent && !isItem(line.text))) break;
      if (line.indent > indent) throw LEAVE;
      const rest = line.text.slice(2);
      if (startsMapping(rest)) {
        // `- key: value`: the item's mapping has its keys two columns right of the dash, the first on the dash's line.
        this.lines[this.next] = { indent: indent + 2, text: rest };
        items.push(this.mapping(indent + 2));
      } else {
        items.push(scalarOrFlow(rest));
        this.next += 1;
      }
    }
    return items;
  }
}

function isItem(text: string): boolean {
  return text.startsWith('- ');
}

// Whether an item's text is a `key:` or `key: value` line rather than a scalar.
function startsMapping(text: string): boolean {
  const colon = text.indexOf(':');
  return colon > 0 && KEY.test(text.slice(0, colon)) && (colon === text.length - 1 || text[colon + 1] === ' ');
}

function scalarOrFlow(text: string): unknown {
  const value = text === '{}' ? {} : text[0] === '[' ? flowSequence(text) : quotedOrPlain(text);
  if (value === undefined) throw LEAVE;
  return value;
}
