// The entry editor: the fields in the main column, the side panel with
// status, language and versions, and a save that is always in view (also
// Ctrl/Cmd+S). Unsaved changes are marked, guarded when leaving, and kept
// through a session that ends. A save that meets someone else's change
// shows both versions to choose from, field by field.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { getContentType } from '../../api/content-types.ts';
import { deleteTranslation, getEntry, trashEntry, type VersionedEntry } from '../../api/entries.ts';
import type { ContentType } from '../../api/types.ts';
import { useAuthors } from '../../content/authors.ts';
import { StatusBadge } from '../../content/status-badge.tsx';
import { Link, navigate, useLeaveGuard, useLocation } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { pathTo, type ScreenProps } from '../../routes.ts';
import { useKeptDraft } from '../../session/kept-drafts.ts';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { KeptDraftNotice } from '../../ui/kept-draft-notice.tsx';
import { useAction } from '../../ui/status.tsx';
import { ConflictDialog } from './conflict-dialog.tsx';
import { EntryFields } from './entry-fields.tsx';
import { EntrySidePanel } from './entry-side-panel.tsx';
import { useEntryEditor } from './use-entry-editor.ts';
import './entry-screen.css';

/** The editor of one entry, a new entry (`/new`) or a single page. */
export function EntryScreen({ params }: ScreenProps) {
  const { query } = useLocation();
  const [type, setType] = useState<ContentType>();
  const [error, setError] = useState<string>();
  // The entry is asked for at once, beside its type; the editor takes the answer.
  const [firstLoad] = useState(() => {
    if (!params.id) return undefined;
    const read = getEntry(params.type, params.id, query.get('locale') ?? undefined);
    read.catch(() => undefined); // the editor handles a failure; until then it is not unhandled
    return read;
  });
  useEffect(() => {
    getContentType(params.type).then(setType, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The content type could not be loaded.'));
  }, [params.type]);
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!type) return <p class="loading">Loading…</p>;
  return <Editor key={`${type.name}/${params.id ?? 'new'}`} type={type} id={params.id} firstLoad={firstLoad} />;
}

function Editor({ type, id, firstLoad }: { type: ContentType; id: string | undefined; firstLoad: Promise<VersionedEntry> | undefined }) {
  const { query } = useLocation();
  const locale = type.locales.length > 0 ? query.get('locale') ?? type.default_locale : undefined;
  const editor = useEntryEditor(type, id, locale, firstLoad);
  const authors = useAuthors();
  const save = useAction({ progress: 'Saving…', success: 'Saved.', handles: ['precondition_failed'] });
  const draft = useKeptDraft(`entry:${type.name}:${id ?? 'new'}:${locale ?? ''}`, editor.values, editor.isDirty);
  const [comparing, setComparing] = useState(false);
  useLeaveGuard(editor.isDirty);
  useTitle(editor.entry ? editor.entry.title || editor.entry.slug : type.singleton ? type.label || type.name : 'New entry');

  const submit = async (task = editor.save) => {
    const saved = await save.run(task);
    if (!saved) {
      if (editor.other || save.error?.code === 'precondition_failed') setComparing(true);
      return;
    }
    draft.clear();
    const address = !type.singleton && !editor.entry ? pathTo('entry', { type: type.name, id: saved.id }) : undefined;
    if (address) navigate(address + (query.toString() ? `?${query}` : ''), { replace: true });
  };
  useSaveShortcut(() => void submit());
  useEffect(() => {
    if (editor.other?.noticed === 'save') setComparing(true);
  }, [editor.other]);

  if (editor.status === 'missing') {
    const list = pathTo('entries', { type: type.name });
    return <EmptyState title="Entry not found" action={list && <Link href={list}>Back to {type.label || type.name}</Link>}>{editor.loadError?.message}</EmptyState>;
  }
  if (editor.status === 'loading') return <p class="loading">{editor.loadError?.message ?? 'Loading…'}</p>;
  const list = type.singleton ? undefined : pathTo('entries', { type: type.name });
  const removeTranslation = async () => {
    if (!editor.entry || !locale) return;
    await deleteTranslation(type.name, editor.entry.id, locale);
    await editor.reload();
  };
  const trash = async () => {
    if (!editor.entry) return;
    await trashEntry(type.name, editor.entry.id);
    editor.setValues(editor.base);
    navigate(list ?? pathTo('home') ?? '/admin', { replace: true });
  };

  return (
    <form class="screen screen--wide entry-editor" noValidate onSubmit={(event) => { event.preventDefault(); void submit(); }}>
      <header class="entry-editor__bar">
        {list && <Link href={list} class="entry-editor__back">← {type.label || type.name}</Link>}
        <h1>{editor.entry ? editor.entry.title || '(untitled)' : type.singleton ? type.label || type.name : 'New entry'}</h1>
        {editor.entry && <StatusBadge status={editor.entry.status} publishedAt={editor.entry.published_at} />}
        <span class="entry-editor__spacer" />
        {editor.isDirty && <span class="unsaved">Unsaved changes</span>}
        <Button type="submit" variant="primary" busy={save.busy} disabled={!editor.isDirty && Boolean(editor.entry)} aria-keyshortcuts="Control+S Meta+S">
          {editor.entry ? 'Save' : 'Create'}
        </Button>
      </header>
      <KeptDraftNotice draft={draft} onRestore={editor.replaceValues} />
      {editor.other?.noticed === 'live' && !comparing && (
        <div class="notice" role="status">
          <p>Someone else just changed this entry. Your unsaved changes are still here.</p>
          <div class="notice__actions">
            <Button onClick={() => setComparing(true)}>Compare versions</Button>
          </div>
        </div>
      )}
      {save.error && save.error.code !== 'validation_failed' && save.error.code !== 'precondition_failed' && <p class="form-error" role="alert">{save.error.message}</p>}
      <div class="entry-editor__columns">
        <EntryFields key={editor.revision} type={type} values={editor.values} update={editor.setValues} errors={save.fieldErrors} />
        <EntrySidePanel
          type={type}
          entry={editor.entry}
          values={editor.values}
          onValues={editor.setValues}
          locale={locale}
          errors={save.fieldErrors}
          authors={authors}
          onDeleteTranslation={removeTranslation}
          onTrash={trash}
        />
      </div>
      {comparing && editor.other && (
        <ConflictDialog
          type={type}
          base={editor.base}
          mine={editor.values}
          other={editor.other}
          onClose={() => setComparing(false)}
          onMerge={(merged) => {
            setComparing(false);
            void submit(() => editor.saveMerge(merged));
          }}
        />
      )}
    </form>
  );
}

// Ctrl+S (Cmd+S on a Mac) saves instead of saving the page.
function useSaveShortcut(onSave: () => void): void {
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        onSave();
      }
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  });
}
