// The markdown editor: CodeMirror 6 with markdown highlighting, undo history
// and line wrapping. Loaded only when an editor with a markdown field opens,
// so the list screens never download it. It lives in a shadow root: there
// CodeMirror's styles go into adopted style sheets, which the app's CSP
// (no inline styles) allows, where on the page it would add <style> tags.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { defaultHighlightStyle, defineLanguageFacet, Language, syntaxHighlighting } from '@codemirror/language';
import { GFM, parser } from '@lezer/markdown';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';

/** The running editor, to remove it. */
export interface MountedEditor {
  destroy(): void;
}

/** What the editor is told when it mounts. */
export interface MarkdownEditorOptions {
  text: string;
  onText: (text: string) => void;
  /** The field's label (ids do not reach into the shadow root, so the name is given as text). */
  label: string;
}

// Markdown (with GitHub's tables, task lists and strikethrough) straight from
// the lezer parser, which brings its own highlighting: @codemirror/lang-markdown
// would also bundle the HTML, CSS and JavaScript languages for embedded code.
const MARKDOWN = new Language(defineLanguageFacet(), parser.configure(GFM), [], 'markdown');

// The look inside the shadow root, where the page's stylesheet does not reach.
const THEME = EditorView.theme({
  '&': { minHeight: '10rem', fontSize: '1rem' },
  '&.cm-focused': { outline: '3px solid #1f4f9c', outlineOffset: '2px' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', padding: '0.5rem 0' },
  '.cm-placeholder': { color: '#57606a' },
});

/** Mounts a markdown editor into `parent` (once: it takes the element's shadow root). */
export function mountMarkdownEditor(parent: HTMLElement, options: MarkdownEditorOptions): MountedEditor {
  const root = parent.attachShadow({ mode: 'open' });
  // The text is reported after CodeMirror's own update has finished: a page
  // that re-renders inside the update froze Chromium while typing.
  let pending: ReturnType<typeof setTimeout> | undefined;
  const reportSoon = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      options.onText(view.state.doc.toString());
    });
  };
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        MARKDOWN,
        syntaxHighlighting(defaultHighlightStyle),
        EditorView.lineWrapping,
        placeholder('Write in markdown…'),
        EditorView.contentAttributes.of({ 'aria-label': options.label, 'aria-multiline': 'true' }),
        THEME,
        EditorView.updateListener.of((update) => {
          if (update.docChanged) reportSoon();
        }),
      ],
    }),
  });
  return {
    destroy: () => {
      clearTimeout(pending);
      view.destroy();
    },
  };
}
