// Markdown to safe HTML for the preview tab: marked renders, DOMPurify
// removes anything that could run script. Loaded with the editor.
import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** The preview's HTML for `text`. */
export function renderMarkdown(text: string): string {
  // Style attributes are dropped too: the app's CSP refuses them.
  return DOMPurify.sanitize(marked.parse(text, { async: false }), { FORBID_ATTR: ['style'] });
}
