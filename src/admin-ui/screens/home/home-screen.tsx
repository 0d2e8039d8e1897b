// The dashboard, each workspace's start page: entries per content type and
// status, media, entries waiting for their publish time, recent edits and
// activity, and files from git that were skipped with the reason. It
// follows changes made elsewhere.
import { useEffect, useState } from 'preact/hooks';
import { getDashboard, type Dashboard } from '../../api/operations.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { useLiveEvents } from '../../live/live-events.tsx';
import { Link } from '../../router/router.tsx';
import { pathTo } from '../../routes.ts';
import { useSignedIn } from '../../session/session.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { formatBytes } from '../media/upload-queue.ts';
import './home-screen.css';

export function HomeScreen() {
  const { user, can } = useSignedIn();
  const [dashboard, setDashboard] = useState<Dashboard>();
  const reload = () => void getDashboard().then(setDashboard, () => undefined);
  useEffect(reload, []);
  useLiveEvents({ events: ['schema.', 'content.', 'media.'], onEvent: reload, onResume: reload });
  const newType = pathTo('newType');
  const entryLink = (type: string, id: string) => pathTo('entry', { type, id });
  return (
    <div class="screen screen--wide">
      <h1>Welcome, {user.display_name || user.username}</h1>
      {!dashboard && <p class="loading">Loading…</p>}
      {dashboard?.types.length === 0 && (
        <EmptyState
          title="No content types yet"
          action={newType && can('schema.create') ? <Link href={newType} class="button button--primary">Create the first content type</Link> : undefined}
        >
          A content type describes one kind of content, such as blog posts or the about page.
          {!can('schema.create') && ' Ask an administrator to create one.'}
        </EmptyState>
      )}
      {dashboard && dashboard.types.length > 0 && (
        <>
          <section aria-labelledby="counts">
            <h2 id="counts" class="visually-hidden">Content</h2>
            <ul class="card-list">
              {dashboard.types.map((type) => {
                const href = type.singleton ? pathTo('entry', { type: type.name, id: type.name }) : pathTo('entries', { type: type.name });
                return (
                  <li key={type.name} class="card">
                    {href ? <Link href={href}>{type.label || type.name}</Link> : <span>{type.label || type.name}</span>}
                    <span class="card__meta">
                      {type.singleton ? 'Single page' : `${type.total} ${type.total === 1 ? 'entry' : 'entries'}`}
                      {!type.singleton && ` · ${type.by_status.published ?? 0} published, ${type.by_status.draft ?? 0} drafts`}
                    </span>
                  </li>
                );
              })}
              {dashboard.media && (
                <li class="card">
                  {pathTo('media') ? <Link href={pathTo('media') as string}>Media</Link> : <span>Media</span>}
                  <span class="card__meta">
                    {dashboard.media.count} {dashboard.media.count === 1 ? 'file' : 'files'} · {formatBytes(dashboard.media.bytes)}
                  </span>
                </li>
              )}
            </ul>
          </section>
          <div class="dashboard">
            <DashboardList title="Scheduled" empty="Nothing is waiting for its publish time." items={dashboard.scheduled.map((entry) => ({ key: `${entry.type}/${entry.id}`, href: entryLink(entry.type, entry.id), text: entry.title, meta: `${entry.type} · ${formatDateTime(entry.published_at)}` }))} />
            <DashboardList title="Recently edited" empty="No entries yet." items={dashboard.recent_edits.map((entry) => ({ key: `${entry.type}/${entry.id}`, href: entryLink(entry.type, entry.id), text: entry.title, meta: `${entry.type} · ${formatDateTime(entry.updated_at)}` }))} />
            {can('activity.read') && (
              <DashboardList title="Recent activity" empty="Nothing has happened yet." items={dashboard.recent_activity.map((record) => ({ key: record.id, text: record.message, meta: formatDateTime(record.time) }))} />
            )}
            {can('problems.read') && (
              <DashboardList
                title="Files from git that were skipped"
                empty="Every file from git could be read."
                items={dashboard.skipped_files.map((file) => ({ key: `${file.path}:${file.reason}`, text: file.path, meta: `${file.reason} · ${formatDateTime(file.time)}` }))}
              />
            )}
          </div>
        </>
      )}
    </div>
  );
}

interface ListItem {
  key: string;
  text: string;
  meta: string;
  href?: string;
}

function DashboardList({ title, empty, items }: { title: string; empty: string; items: ListItem[] }) {
  return (
    <section class="panel dashboard__panel" aria-label={title}>
      <h2>{title}</h2>
      {items.length === 0 ? (
        <p class="field__hint">{empty}</p>
      ) : (
        <ul class="dashboard__list">
          {items.map((item) => (
            <li key={item.key}>
              {item.href ? <Link href={item.href}>{item.text}</Link> : <span class="break">{item.text}</span>}
              <span class="card__meta">{item.meta}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
