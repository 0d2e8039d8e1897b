// Every content type of the workspace: collections and single pages, how
// many fields and languages each has, with links to edit them and to create
// a new one. Follows schema changes made elsewhere.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { listContentTypes } from '../../api/content-types.ts';
import type { ContentType } from '../../api/types.ts';
import { useLiveEvents } from '../../live/live-events.tsx';
import { Link } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { pathTo } from '../../routes.ts';
import { EmptyState } from '../../ui/empty-state.tsx';
import './types-screen.css';

export function TypesScreen() {
  const [types, setTypes] = useState<ContentType[]>();
  const [error, setError] = useState<string>();
  const load = () => void listContentTypes().then(setTypes, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The content types could not be loaded.'));
  useEffect(load, []);
  useLiveEvents({ events: ['schema.'], onEvent: load, onResume: load });
  useTitle('Content types');
  const create = pathTo('newType');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!types) return <p class="loading">Loading…</p>;
  return (
    <div class="screen">
      <header class="type-builder__header">
        <h1>Content types</h1>
        {create && (
          <Link href={create} class="button button--primary">
            New content type
          </Link>
        )}
      </header>
      {types.length === 0 ? (
        <EmptyState title="No content types yet" action={create && <Link href={create} class="button button--primary">Create the first content type</Link>}>
          A content type says what an entry holds: a blog post, a product, an “About us” page.
        </EmptyState>
      ) : (
        <ul class="card-list">
          {types.map((type) => (
            <li key={type.name} class="card">
              <Link href={pathTo('type', { name: type.name }) ?? '#'}>{type.label || type.name}</Link>
              <span class="card__meta">
                {type.singleton ? 'Single page' : 'Collection'} · {Object.keys(type.fields).length} {Object.keys(type.fields).length === 1 ? 'field' : 'fields'}
                {type.locales.length > 0 && ` · ${type.locales.join(', ')}`}
                {type.visibility === 'private' && ' · private'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
