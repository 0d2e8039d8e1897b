// The editor's state: load the entry (or start a new one), track what the
// editor changed, save only that with the version it was loaded at, and
// notice when someone else saved in between — by a 412 on save, or by a live
// event while the entry is open.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { createEntry, getEntry, updateEntry, type VersionedEntry } from '../../api/entries.ts';
import type { ContentType, Entry } from '../../api/types.ts';
import { useLiveEvents } from '../../live/live-events.tsx';
import { bodyOf, changedKeys, createBodyOf, newValues, sameValue, valuesOf, type FormValues } from './entry-form.ts';

/** Someone else's version, met on save or announced live, to compare with the editor's. */
export interface OtherVersion extends VersionedEntry {
  /** How it was noticed: a refused save, or a change announced while editing. */
  noticed: 'save' | 'live';
}

/** Everything the editor screen draws from. */
export interface EntryEditor {
  status: 'loading' | 'ready' | 'missing';
  loadError: ApiError | undefined;
  /** The saved entry; undefined for a new one. */
  entry: Entry | undefined;
  base: FormValues;
  values: FormValues;
  /** An edit of the form (inputs report their values here). */
  setValues: (values: FormValues | ((current: FormValues) => FormValues)) => void;
  /** Replaces the form with values from elsewhere (a kept draft); the inputs start over with them. */
  replaceValues: (values: FormValues) => void;
  /** Counts replacements from elsewhere: inputs are keyed by it, so editors holding their own text start over. */
  revision: number;
  isDirty: boolean;
  /** Saves; resolves to the saved entry, or throws the ApiError (a 412 sets `other` instead). */
  save: () => Promise<Entry>;
  /** Someone else's version that the editor has not taken in yet. */
  other: OtherVersion | undefined;
  /** Saves the editor's merge of the other version and theirs, on top of theirs. Throws like `save`. */
  saveMerge: (merged: FormValues) => Promise<Entry>;
  dismissOther: () => void;
  /** Loads the entry again (after a translation was deleted, say). */
  reload: () => Promise<void>;
}

/**
 * The editor of entry `id` of `type` in `locale`; `id` undefined starts a new
 * entry. `firstLoad` is that entry's read, already under way (the screen
 * starts it beside the type's, so the two do not wait for each other).
 */
export function useEntryEditor(type: ContentType, id: string | undefined, locale: string | undefined, firstLoad?: Promise<VersionedEntry>): EntryEditor {
  const [status, setStatus] = useState<EntryEditor['status']>(id ? 'loading' : 'ready');
  const [loadError, setLoadError] = useState<ApiError>();
  const [entry, setEntry] = useState<Entry>();
  const [base, setBase] = useState<FormValues>(() => newValues(type));
  const [values, setValues] = useState<FormValues>(base);
  const [other, setOther] = useState<OtherVersion>();
  const [revision, setRevision] = useState(0);
  const valuesRef = useRef(values);
  valuesRef.current = values;
  const etag = useRef<string | undefined>(undefined);
  // While our own save runs, the change it announces is ours: its answer brings the new version.
  const saving = useRef(false);
  const isDirty = changedKeys(type, base, values).length > 0;
  const dirtyRef = useRef(isDirty);
  dirtyRef.current = isDirty;

  const take = (loaded: VersionedEntry) => {
    const next = valuesOf(loaded.entry);
    // Unchanged values (our own save) keep the inputs as they are, cursor included.
    if (!sameValue(next, valuesRef.current)) setRevision((n) => n + 1);
    etag.current = loaded.etag;
    setEntry(loaded.entry);
    setBase(next);
    setValues(next);
    setOther(undefined);
    setStatus('ready');
  };

  const pendingFirstLoad = useRef(firstLoad);
  const load = async () => {
    if (!id) return;
    const read = pendingFirstLoad.current ?? getEntry(type.name, id, locale);
    pendingFirstLoad.current = undefined;
    try {
      take(await read);
      setLoadError(undefined);
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError(0, 'internal_error', 'The entry could not be loaded.');
      // A single page that was never saved opens as a new entry.
      if (failure.status === 404 && type.singleton) {
        setStatus('ready');
        return;
      }
      setLoadError(failure);
      setStatus(failure.status === 404 ? 'missing' : 'loading');
    }
  };
  useEffect(() => void load(), [type.name, id, locale]);

  const localeOfType = type.locales.length > 0 ? locale ?? type.default_locale : undefined;

  // Sends what differs between `from` and `to` on top of version `version` of the saved entry.
  const persist = async (saved: Entry | undefined, from: FormValues, to: FormValues, version: string | undefined): Promise<Entry> => {
    saving.current = true;
    try {
      const result = saved
        ? await updateEntry(type.name, saved.id, bodyOf(to, changedKeys(type, from, to), localeOfType), version)
        : await createEntry(type.name, createBodyOf(type, to, localeOfType));
      take(result);
      return result.entry;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'precondition_failed' && saved) {
        setOther({ ...(await getEntry(type.name, saved.id, locale)), noticed: 'save' });
      }
      throw error;
    } finally {
      saving.current = false;
    }
  };

  useLiveEvents({
    events: ['content.'],
    onEvent: (event) => {
      if (!entry || event.data.id !== entry.id || saving.current) return;
      getEntry(type.name, entry.id, locale).then(
        (latest) => {
          if (latest.etag === etag.current || saving.current) return;
          if (dirtyRef.current) setOther({ ...latest, noticed: 'live' });
          else take(latest);
        },
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) {
            setLoadError(new ApiError(404, 'not_found', 'This entry was moved to the trash by someone else.'));
            setStatus('missing');
          }
        },
      );
    },
  });

  return {
    status,
    loadError,
    entry,
    base,
    values,
    setValues,
    replaceValues: (replacement) => {
      setValues(replacement);
      setRevision((n) => n + 1);
    },
    revision,
    isDirty,
    save: () => persist(entry, base, values, etag.current),
    other,
    saveMerge: (merged) => {
      if (!other) return Promise.reject(new Error('There is no other version to merge with.'));
      setValues(merged);
      return persist(other.entry, valuesOf(other.entry), merged, other.etag);
    },
    dismissOther: () => setOther(undefined),
    reload: load,
  };
}
