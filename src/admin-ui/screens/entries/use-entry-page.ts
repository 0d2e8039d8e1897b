// Loads one page of the list for the current address, and loads it again when
// an entry of this type changes anywhere (another editor, the API, a git
// commit) — without a reload and without losing the place.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { listEntries } from '../../api/entries.ts';
import type { ContentType, Entry } from '../../api/types.ts';
import { useAuthors } from '../../content/authors.ts';
import { useLiveEvents } from '../../live/live-events.tsx';
import { apiQueryOf, type ListState } from './list-state.ts';

/** The page on screen, or why it could not be loaded. */
export interface EntryPage {
  entries: Entry[] | undefined;
  total: number;
  loading: boolean;
  error: ApiError | undefined;
  /** Author id → name. */
  authors: Map<string, string>;
  reload: () => void;
}

/** Fetches the page `state` describes; a newer request cancels an older one. */
export function useEntryPage(type: ContentType, state: ListState): EntryPage {
  const [entries, setEntries] = useState<Entry[]>();
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError>();
  const [generation, setGeneration] = useState(0);
  const authors = useAuthors();
  const running = useRef<AbortController | undefined>(undefined);
  const key = JSON.stringify(apiQueryOf(state));

  useEffect(() => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setLoading(true);
    listEntries(type.name, apiQueryOf(state), controller.signal).then(
      ({ entries: page, meta }) => {
        if (controller.signal.aborted) return;
        setEntries(page);
        setTotal(meta.total);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure instanceof ApiError ? failure : new ApiError(0, 'internal_error', 'The list could not be loaded.'));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [type.name, key, generation]);

  const reload = () => setGeneration((n) => n + 1);
  useLiveEvents({
    events: ['content.'],
    onEvent: (event) => {
      if (event.data.type === type.name) reload();
    },
    onResume: reload,
  });
  return { entries, total, loading, error, authors, reload };
}
