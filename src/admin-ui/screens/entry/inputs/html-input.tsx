// An html field: a rich-text editor with a toolbar, and the HTML as the
// server stores it. The server sanitizes on save (scripts, event handlers
// and unknown tags go); when that changes the HTML, the form takes the saved
// values and the editor starts over with the sanitized result.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { MountedRichText, RichTextCommand } from './rich-text-editor.ts';
import { textOf, type FieldInputProps } from './field-input.ts';

const TOOLBAR: { command: RichTextCommand; label: string; toggles: boolean }[] = [
  { command: 'bold', label: 'Bold', toggles: true },
  { command: 'italic', label: 'Italic', toggles: true },
  { command: 'heading', label: 'Heading', toggles: true },
  { command: 'bulletList', label: 'Bulleted list', toggles: true },
  { command: 'orderedList', label: 'Numbered list', toggles: true },
  { command: 'blockquote', label: 'Quote', toggles: true },
  { command: 'undo', label: 'Undo', toggles: false },
  { command: 'redo', label: 'Redo', toggles: false },
];

/** Rich text stored as sanitized HTML. */
export function HtmlInput({ label, def, value, onValue, error }: FieldInputProps) {
  const id = useId();
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<MountedRichText | undefined>(undefined);
  const [, redraw] = useState(0);
  const html = textOf(value);
  const latest = useRef({ html, onValue });
  latest.current = { html, onValue };
  useEffect(() => {
    let cancelled = false;
    void import('./rich-text-editor.ts').then(({ mountRichText }) => {
      if (cancelled || !host.current) return;
      editor.current = mountRichText(host.current, {
        html: latest.current.html,
        onHtml: (next) => latest.current.onValue(next),
        onState: () => redraw((n) => n + 1),
        labelledBy: `${id}-label`,
      });
      redraw((n) => n + 1);
    });
    return () => {
      cancelled = true;
      editor.current?.destroy();
    };
  }, []);
  return (
    <div class={error ? 'field field--invalid' : 'field'}>
      <span id={`${id}-label`} class="editor-head__label">
        {label}
        {def.required && <span class="field__required"> (required)</span>}
      </span>
      <div class="rich-text">
        <div class="rich-text__toolbar" role="toolbar" aria-label={`${label} formatting`}>
          {TOOLBAR.map((tool) => (
            <button
              key={tool.command}
              type="button"
              class="tab"
              aria-pressed={tool.toggles ? (editor.current?.isActive(tool.command) ?? false) : undefined}
              disabled={!editor.current}
              // Pressing a tool must not take the focus (and the selection) away from the text.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => editor.current?.run(tool.command)}
            >
              {tool.label}
            </button>
          ))}
        </div>
        <div ref={host} />
      </div>
      <details class="rich-text__source">
        <summary>HTML as saved</summary>
        <pre>{html || '(empty)'}</pre>
      </details>
      {error && <p class="field__error">{error}</p>}
    </div>
  );
}
