// The sidebar (UI.md "Shape"): workspace switcher, collections and single
// pages in the stored order, media and trash, administration for those
// allowed, and the user menu at the bottom. Types reload on live type events.
import { useEffect, useState } from 'preact/hooks';
import { listContentTypes, reorderContentTypes } from '../api/content-types.ts';
import type { ContentType } from '../api/types.ts';
import { useLiveEvents } from '../live/live-events.tsx';
import { Link, useLocation } from '../router/router.tsx';
import { pathTo } from '../routes.ts';
import { useSignedIn } from '../session/session.tsx';
import { useAction } from '../ui/status.tsx';
import { ADMIN_ENTRIES, LIBRARY_ENTRIES, visibleEntries } from './navigation.ts';
import { TypeNav } from './type-nav.tsx';
import { UserMenu } from './user-menu.tsx';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';

/** The navigation column. */
export function Sidebar({ id }: { id: string }) {
  const { workspace, can } = useSignedIn();
  const [types, setTypes] = useState<ContentType[]>([]);
  const saveOrder = useAction({ progress: 'Saving the order…', success: 'Order saved.' });
  const reload = () => void listContentTypes().then(setTypes, () => undefined);

  useEffect(reload, [workspace]);
  useLiveEvents({ events: ['schema.'], onEvent: reload, onResume: reload });

  const collections = types.filter((type) => !type.singleton);
  const singles = types.filter((type) => type.singleton);
  const reorder = async (section: 'collections' | 'singles', names: string[]) => {
    const byName = new Map(types.map((type) => [type.name, type]));
    const ordered = (section === 'collections' ? [...names, ...singles.map((type) => type.name)] : [...collections.map((type) => type.name), ...names]).map((name) => byName.get(name) as ContentType);
    const before = types;
    setTypes(ordered);
    const saved = await saveOrder.run(() => reorderContentTypes(ordered.map((type) => type.name)));
    setTypes(saved ?? before);
  };
  const mayReorder = can('schema.update');
  const library = visibleEntries(LIBRARY_ENTRIES, can);
  const admin = visibleEntries(ADMIN_ENTRIES, can);

  return (
    <nav id={id} class="sidebar" aria-label="Main">
      <WorkspaceSwitcher />
      <div class="sidebar__scroll">
        <TypeNav
          title="Collections"
          types={collections}
          hrefOf={(type) => pathTo('entries', { type: type.name })}
          onReorder={mayReorder ? (names) => void reorder('collections', names) : undefined}
        />
        <TypeNav
          title="Single pages"
          types={singles}
          hrefOf={(type) => pathTo('entry', { type: type.name, id: type.name })}
          onReorder={mayReorder ? (names) => void reorder('singles', names) : undefined}
        />
        <NavList title="Library" entries={library} />
        <NavList title="Administration" entries={admin} />
      </div>
      <UserMenu />
    </nav>
  );
}

function NavList({ title, entries }: { title: string; entries: { label: string; href: string }[] }) {
  const location = useLocation();
  if (entries.length === 0) return null;
  return (
    <section aria-label={title}>
      <h2 class="sidebar__heading">{title}</h2>
      <ul class="sidebar__list">
        {entries.map((entry) => (
          <li key={entry.href}>
            <Link href={entry.href} class="sidebar__link" aria-current={location.path.startsWith(entry.href) ? 'page' : undefined}>
              {entry.label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
