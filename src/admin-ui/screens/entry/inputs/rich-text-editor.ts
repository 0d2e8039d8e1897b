// The rich-text editor of html fields: TipTap (ProseMirror) with the usual
// marks and blocks. Loaded only when an editor with an html field opens. Its
// own CSS injection is off (the app's CSP allows no inline styles); the look
// is in entry-screen.css.
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';

/** A toolbar command by name. */
export type RichTextCommand = 'bold' | 'italic' | 'heading' | 'bulletList' | 'orderedList' | 'blockquote' | 'undo' | 'redo';

/** The running editor. */
export interface MountedRichText {
  run(command: RichTextCommand): void;
  /** Whether a mark or block is on at the cursor (for the toolbar's pressed state). */
  isActive(command: RichTextCommand): boolean;
  destroy(): void;
}

/** What the editor is told when it mounts. */
export interface RichTextOptions {
  html: string;
  onHtml: (html: string) => void;
  /** Called on every change of selection or content, to redraw the toolbar. */
  onState: () => void;
  labelledBy: string;
}

/** Mounts a rich-text editor into `parent`. */
export function mountRichText(parent: HTMLElement, options: RichTextOptions): MountedRichText {
  const editor = new Editor({
    element: parent,
    extensions: [StarterKit.configure({ link: { openOnClick: false } })],
    content: options.html,
    injectCSS: false,
    editorProps: { attributes: { 'aria-labelledby': options.labelledBy, 'aria-multiline': 'true', role: 'textbox', class: 'rich-text__content prose' } },
    // Reported after TipTap's own update, like the markdown editor (see there).
    onUpdate: ({ editor: current }) => void setTimeout(() => !current.isDestroyed && options.onHtml(current.isEmpty ? '' : current.getHTML())),
    onTransaction: () => options.onState(),
  });
  const chain = () => editor.chain().focus();
  const commands: Record<RichTextCommand, () => void> = {
    bold: () => chain().toggleBold().run(),
    italic: () => chain().toggleItalic().run(),
    heading: () => chain().toggleHeading({ level: 2 }).run(),
    bulletList: () => chain().toggleBulletList().run(),
    orderedList: () => chain().toggleOrderedList().run(),
    blockquote: () => chain().toggleBlockquote().run(),
    undo: () => chain().undo().run(),
    redo: () => chain().redo().run(),
  };
  return {
    run: (command) => commands[command](),
    isActive: (command) => (command === 'heading' ? editor.isActive('heading', { level: 2 }) : editor.isActive(command)),
    destroy: () => editor.destroy(),
  };
}
