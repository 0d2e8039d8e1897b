// One page of the library for the given filters, loaded again when files
// change anywhere (another editor, the API, an upload in another tab).
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { listMedia, type MediaItem, type MediaQuery } from '../../api/media.ts';
import { useLiveEvents } from '../../live/live-events.tsx';

export interface MediaPage {
  items: MediaItem[] | undefined;
  total: number;
  categories: string[];
  error: string | undefined;
  reload: () => void;
}

export function useMediaPage(query: MediaQuery): MediaPage {
  const [items, setItems] = useState<MediaItem[]>();
  const [total, setTotal] = useState(0);
  const [categories, setCategories] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [generation, setGeneration] = useState(0);
  const key = JSON.stringify(query);
  useEffect(() => {
    const controller = new AbortController();
    listMedia(query, controller.signal).then(
      ({ items: page, meta }) => {
        setItems(page);
        setTotal(meta.total);
        setCategories(meta.categories);
        setError(undefined);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure instanceof ApiError ? failure.message : 'The media library could not be loaded.');
      },
    );
    return () => controller.abort();
  }, [key, generation]);
  const reload = () => setGeneration((n) => n + 1);
  useLiveEvents({ events: ['media.'], onEvent: reload, onResume: reload });
  return { items, total, categories, error, reload };
}
