// One page of a collection's trash, loaded again when an entry of the
// collection is deleted, restored or purged anywhere.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { listTrash, type TrashedEntry } from '../../api/trash.ts';
import { useAuthors } from '../../content/authors.ts';
import { useLiveEvents } from '../../live/live-events.tsx';

export const TRASH_PAGE_SIZE = 50;

export interface TrashPage {
  entries: TrashedEntry[] | undefined;
  total: number;
  error: string | undefined;
  authors: Map<string, string>;
  reload: () => void;
}

export function useTrashPage(type: string, offset: number): TrashPage {
  const [entries, setEntries] = useState<TrashedEntry[]>();
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string>();
  const [generation, setGeneration] = useState(0);
  const authors = useAuthors();
  useEffect(() => {
    let isCurrent = true;
    listTrash(type, { limit: TRASH_PAGE_SIZE, offset }).then(
      ({ entries: page, meta }) => {
        if (!isCurrent) return;
        setEntries(page);
        setTotal(meta.total);
        setError(undefined);
      },
      (failure: unknown) => isCurrent && setError(failure instanceof ApiError ? failure.message : 'The trash could not be loaded.'),
    );
    return () => {
      isCurrent = false;
    };
  }, [type, offset, generation]);
  const reload = () => setGeneration((n) => n + 1);
  useLiveEvents({ events: ['content.'], onEvent: (event) => event.data.type === type && reload() });
  return { entries, total, error, authors, reload };
}
