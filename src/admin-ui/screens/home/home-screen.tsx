// The start page of a workspace: a greeting and where to go next. Issue 12
// (dashboard) replaces it with counts, recent activity and scheduled entries.
import { useEffect, useState } from 'preact/hooks';
import { listContentTypes } from '../../api/content-types.ts';
import type { ContentType } from '../../api/types.ts';
import { useLiveEvents } from '../../live/live-events.tsx';
import { Link } from '../../router/router.tsx';
import { pathTo } from '../../routes.ts';
import { useSignedIn } from '../../session/session.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';

/** Greeting plus the workspace's types, or the next step when there are none. */
export function HomeScreen() {
  const { user, can } = useSignedIn();
  const [types, setTypes] = useState<ContentType[]>();
  const reload = () => void listContentTypes().then(setTypes, () => setTypes([]));
  useEffect(reload, []);
  useLiveEvents({ events: ['schema.'], onEvent: reload, onResume: reload });
  const newType = pathTo('newType');

  return (
    <div class="screen">
      <h1>Welcome, {user.display_name || user.username}</h1>
      {types?.length === 0 && (
        <EmptyState
          title="No content types yet"
          action={newType && can('schema.create') ? <Link href={newType} class="button button--primary">Create the first content type</Link> : undefined}
        >
          A content type describes one kind of content, such as blog posts or the about page.
          {!can('schema.create') && ' Ask an administrator to create one.'}
        </EmptyState>
      )}
      {types && types.length > 0 && (
        <section aria-label="Content">
          <p>Pick what you want to work on.</p>
          <ul class="card-list">
            {types.map((type) => {
              const href = type.singleton ? pathTo('entry', { type: type.name, id: type.name }) : pathTo('entries', { type: type.name });
              return (
                <li key={type.name} class="card">
                  {href ? <Link href={href}>{type.label || type.name}</Link> : <span>{type.label || type.name}</span>}
                  <span class="card__meta">{type.singleton ? 'Single page' : 'Collection'}</span>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}
