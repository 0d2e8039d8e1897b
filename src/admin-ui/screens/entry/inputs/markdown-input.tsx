// A markdown field: "Write" with a real editor (CodeMirror, loaded on first
// use) and "Preview" with the rendered, sanitized result.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { MountedEditor } from './markdown-editor.ts';
import { textOf, type FieldInputProps } from './field-input.ts';

/** Markdown with a write/preview switch. */
export function MarkdownInput({ label, def, value, onValue, error }: FieldInputProps) {
  const id = useId();
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const text = textOf(value);
  return (
    <div class={error ? 'field field--invalid' : 'field'}>
      <div class="editor-head">
        <span id={`${id}-label`} class="editor-head__label">
          {label}
          {def.required && <span class="field__required"> (required)</span>}
        </span>
        <div class="tabs" role="group" aria-label={`${label}: write or preview`}>
          <button type="button" class="tab" aria-pressed={mode === 'write'} onClick={() => setMode('write')}>
            Write
          </button>
          <button type="button" class="tab" aria-pressed={mode === 'preview'} onClick={() => setMode('preview')}>
            Preview
          </button>
        </div>
      </div>
      <div hidden={mode !== 'write'}>
        <MarkdownEditor text={text} onText={onValue} label={label} />
      </div>
      {mode === 'preview' && <MarkdownPreview text={text} labelledBy={`${id}-label`} />}
      {error && (
        <p id={`${id}-error`} class="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

function MarkdownEditor({ text, onText, label }: { text: string; onText: (text: string) => void; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<MountedEditor | undefined>(undefined);
  const latest = useRef({ text, onText });
  latest.current = { text, onText };
  // The editor holds the text from here on; a value replaced from elsewhere remounts it (EntryFields is keyed).
  useEffect(() => {
    let cancelled = false;
    void import('./markdown-editor.ts').then(({ mountMarkdownEditor }) => {
      if (cancelled || !host.current) return;
      editor.current = mountMarkdownEditor(host.current, { text: latest.current.text, onText: (next) => latest.current.onText(next), label });
    });
    return () => {
      cancelled = true;
      editor.current?.destroy();
    };
  }, []);
  return <div ref={host} class="markdown-editor" />;
}

function MarkdownPreview({ text, labelledBy }: { text: string; labelledBy: string }) {
  const [html, setHtml] = useState<string>();
  useEffect(() => {
    void import('./markdown-preview.ts').then(({ renderMarkdown }) => setHtml(renderMarkdown(text)));
  }, [text]);
  if (html === undefined) return <p class="loading">Rendering…</p>;
  // The HTML is sanitized by DOMPurify in renderMarkdown.
  return <div class="prose preview" role="region" aria-labelledby={labelledBy} dangerouslySetInnerHTML={{ __html: html }} />;
}
