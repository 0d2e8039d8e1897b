// Progress, then success or the API's own message, for every action: a
// polite live region of short notes at the bottom of the screen, and
// useAction(), which runs one action through it and keeps 422 field messages.
import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useCallback, useContext, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client.ts';

type NoteKind = 'progress' | 'success' | 'error';

interface Note {
  id: number;
  kind: NoteKind;
  text: string;
}

/** Shows and updates notes; most screens use useAction() instead. */
export interface StatusApi {
  show(kind: NoteKind, text: string): number;
  update(id: number, kind: NoteKind, text: string): void;
  dismiss(id: number): void;
}

const SUCCESS_VISIBLE_MS = 4000;
const StatusContext = createContext<StatusApi | undefined>(undefined);

/** Holds the notes; wraps the whole app once. */
export function StatusProvider({ children }: { children: ComponentChildren }) {
  const [notes, setNotes] = useState<Note[]>([]);
  const nextId = useRef(1);
  const api = useMemo<StatusApi>(() => {
    const dismiss = (id: number) => setNotes((all) => all.filter((note) => note.id !== id));
    const update = (id: number, kind: NoteKind, text: string) => {
      setNotes((all) => all.map((note) => (note.id === id ? { id, kind, text } : note)));
      if (kind === 'success') setTimeout(() => dismiss(id), SUCCESS_VISIBLE_MS);
    };
    const show = (kind: NoteKind, text: string) => {
      const id = nextId.current++;
      setNotes((all) => [...all, { id, kind, text }]);
      if (kind === 'success') setTimeout(() => dismiss(id), SUCCESS_VISIBLE_MS);
      return id;
    };
    return { show, update, dismiss };
  }, []);
  return (
    <StatusContext.Provider value={api}>
      {children}
      <div class="notes" role="status" aria-live="polite">
        {notes.map((note) => (
          <div key={note.id} class={`note note--${note.kind}`}>
            {note.kind === 'progress' && <span class="spinner" aria-hidden="true" />}
            <span class="note__text">{note.text}</span>
            {note.kind === 'error' && (
              <button type="button" class="note__close" aria-label="Dismiss message" onClick={() => api.dismiss(note.id)}>
                ×
              </button>
            )}
          </div>
        ))}
      </div>
    </StatusContext.Provider>
  );
}

/** The notes of the nearest StatusProvider. */
export function useStatus(): StatusApi {
  const status = useContext(StatusContext);
  if (!status) throw new Error('useStatus() needs a <StatusProvider> above it.');
  return status;
}

/** The words of one action's notes. */
export interface ActionMessages {
  /** While it runs: "Saving profile…". */
  progress: string;
  /** When it worked: "Profile saved.". */
  success: string;
  /** Error codes the screen shows in its own way (a conflict dialog, say): no note for those. */
  handles?: string[];
}

/** One action's state: run it, whether it runs, and what the API said about each field. */
export interface Action {
  /** Runs `task`, showing progress then success or the API's message; resolves to its result, or undefined when it failed. */
  run<T>(task: () => Promise<T>): Promise<T | undefined>;
  busy: boolean;
  /** The last 422's `fields` (field name → message), cleared by the next run. */
  fieldErrors: Record<string, string>;
  /** The last failure, cleared by the next run. */
  error: ApiError | undefined;
}

/** Runs an action with progress and outcome notes; give `busy` to its button and `fieldErrors` to its fields. */
export function useAction(messages: ActionMessages): Action {
  const status = useStatus();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const lastNote = useRef<number | undefined>(undefined);
  const run = useCallback(
    async <T,>(task: () => Promise<T>): Promise<T | undefined> => {
      setBusy(true);
      setError(undefined);
      // A new attempt replaces the message of the last one.
      if (lastNote.current !== undefined) status.dismiss(lastNote.current);
      const note = status.show('progress', messages.progress);
      lastNote.current = note;
      try {
        const result = await task();
        status.update(note, 'success', messages.success);
        return result;
      } catch (raw) {
        const failure = raw instanceof ApiError ? raw : new ApiError(0, 'internal_error', 'Something went wrong. Try again.');
        setError(failure);
        if (messages.handles?.includes(failure.code)) status.dismiss(note);
        else status.update(note, 'error', failure.message);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [messages.progress, messages.success],
  );
  return { run, busy, fieldErrors: error?.fields ?? {}, error };
}
