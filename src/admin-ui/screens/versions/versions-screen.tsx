// An entry's saved versions: the list (who, when, what), a chosen version
// compared field by field with the entry as it is now, and restore. The
// chosen version is in the address (`?version=`), so it can be shared.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { getContentType } from '../../api/content-types.ts';
import { getEntry } from '../../api/entries.ts';
import { listRevisions, type Revision } from '../../api/revisions.ts';
import type { ContentType, Entry, ListMeta } from '../../api/types.ts';
import { useLiveEvents } from '../../live/live-events.tsx';
import { Link, setQuery, useLocation } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { pathTo, type ScreenProps } from '../../routes.ts';
import { Pager } from '../../ui/pager.tsx';
import { RevisionComparison } from './revision-comparison.tsx';
import { RevisionList } from './revision-list.tsx';
import './versions-screen.css';

const PAGE_SIZE = 50;

interface Loaded {
  type: ContentType;
  entry: Entry;
  revisions: Revision[];
  meta: ListMeta;
}

/** The versions of one entry. */
export function VersionsScreen({ params }: ScreenProps) {
  const { query } = useLocation();
  const offset = Number(query.get('offset') ?? 0) || 0;
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<string>();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let isCurrent = true;
    Promise.all([getContentType(params.type), getEntry(params.type, params.id), listRevisions(params.type, params.id, { limit: PAGE_SIZE, offset })]).then(
      ([type, { entry }, { revisions, meta }]) => isCurrent && (setLoaded({ type, entry, revisions, meta }), setError(undefined)),
      (failure: unknown) => isCurrent && setError(failure instanceof ApiError ? failure.message : 'The versions could not be loaded.'),
    );
    return () => {
      isCurrent = false;
    };
  }, [params.type, params.id, offset, generation]);
  useLiveEvents({ events: ['content.'], onEvent: (event) => event.data.id === params.id && setGeneration((n) => n + 1) });
  useTitle(loaded ? `Versions of ${loaded.entry.title}` : 'Versions');

  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!loaded) return <p class="loading">Loading…</p>;
  const { type, entry, revisions, meta } = loaded;
  const chosen = revisions.find((revision) => revision.id === query.get('version')) ?? revisions.find((revision) => !revision.current);
  const editor = pathTo('entry', { type: type.name, id: entry.id });
  return (
    <div class="screen screen--wide versions">
      <header class="versions__header">
        <h1>Versions of “{entry.title}”</h1>
        {editor && <Link href={editor}>Back to the entry</Link>}
      </header>
      <div class="versions__layout">
        <section aria-labelledby="versions-list">
          <h2 id="versions-list" class="visually-hidden">Saved versions</h2>
          <RevisionList revisions={revisions} chosen={chosen?.id} onChoose={(id) => setQuery({ version: id })} />
          <Pager label="Version pages" offset={offset} limit={PAGE_SIZE} total={meta.total} onOffset={(next) => setQuery({ offset: next ? String(next) : undefined, version: undefined })} />
        </section>
        {chosen && !chosen.current ? (
          <RevisionComparison key={chosen.id} type={type} current={entry} revision={chosen} />
        ) : (
          <p class="versions__hint">{revisions.length > 1 ? 'Choose an earlier version to compare it with the entry as it is now.' : 'This entry has one version so far: every save adds one.'}</p>
        )}
      </div>
    </div>
  );
}
