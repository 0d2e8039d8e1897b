// HTML field sanitizing: an allow-list of formatting, link, image, table and
// code markup. Everything else (scripts, frames, plugins, event handlers,
// script-capable URLs, inline styles) is dropped before a value is stored.
import { createRequire } from 'node:module';
import type sanitizeModule from 'sanitize-html';
import type { IOptions } from 'sanitize-html';

const ALLOWED_TAGS = [
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'div', 'span',
  'blockquote', 'pre', 'code', 'kbd', 'samp', 'var',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'a', 'img', 'figure', 'figcaption',
  'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'sub', 'sup', 'small', 'mark',
  'abbr', 'cite', 'q', 'time',
  'table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  'section', 'article', 'aside', 'header', 'footer', 'details', 'summary',
];

// Content of these is dropped with the tag, not kept as text: none of it is
// prose, and svg/math can smuggle scripts through foreign-content parsing.
const DROPPED_WITH_CONTENT = [
  'script', 'style', 'textarea', 'option', 'select', 'noscript', 'iframe', 'frame', 'frameset',
  'object', 'embed', 'applet', 'svg', 'math', 'template', 'noframes', 'noembed', 'xmp', 'title', 'head',
];

const OPTIONS: IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    '*': ['lang', 'dir', 'title'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    ol: ['start', 'reversed', 'type'],
    li: ['value'],
    th: ['colspan', 'rowspan', 'scope', 'align'],
    td: ['colspan', 'rowspan', 'align'],
    col: ['span'],
    colgroup: ['span'],
    time: ['datetime'],
    blockquote: ['cite'],
    q: ['cite'],
    del: ['cite', 'datetime'],
    ins: ['cite', 'datetime'],
    code: ['class'],
    pre: ['class'],
    details: ['open'],
  },
  // Syntax-highlighting hints are the only classes kept.
  allowedClasses: { code: ['language-*'], pre: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  // Strict: no data: images either (they can carry SVG with script).
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  allowVulnerableTags: false,
  transformTags: {
    // A link that opens a new window must not hand the opener to the target.
    a: (tagName, attribs) => (attribs.target
      ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }
      : { tagName, attribs }),
  },
};

// Loaded (synchronously: it is CommonJS) by the first html value, not by every
// start: with its parser and postcss it costs ~0.1 s of CPU to load.
const require = createRequire(import.meta.url);
let sanitize: typeof sanitizeModule | undefined;

/**
 * The allow-listed form of `html`: scripts, frames, plugins, `on*` handlers,
 * inline styles and `javascript:`/`vbscript:`/`data:` URLs are removed.
 * Applied to every `html` field value before it is stored. Throws nothing.
 */
export function sanitizeHtml(html: string): string {
  sanitize ??= require('sanitize-html') as typeof sanitizeModule;
  return sanitize(html, OPTIONS);
}
