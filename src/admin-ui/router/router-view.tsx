// Draws the screen of the current route inside the shell's <main>: loads the
// screen's chunk on first visit, sets the window title, and moves focus to
// the main region after in-app navigation so screen readers hear the change.
import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { matchRoute, type RouteName, type ScreenProps } from '../routes.ts';
import { EmptyState } from '../ui/empty-state.tsx';
import { Link, useLocation } from './router.tsx';

const APP_NAME = 'git-cms';
const loaded = new Map<RouteName, ComponentType<ScreenProps>>();

/** Sets the window title to `title` (the screen's own, more specific one) while the caller is shown. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`;
  }, [title]);
}

/** The current route's screen, or a "page not found" message for paths without one. */
export function RouterView({ mainId }: { mainId: string }) {
  const location = useLocation();
  const match = matchRoute(location.path);
  const name = match?.route.screen ? match.name : undefined;
  const [, setVersion] = useState(0);
  const [failed, setFailed] = useState<RouteName>();
  const firstRender = useRef(true);

  useEffect(() => {
    if (!match || !name || loaded.has(name)) return;
    let active = true;
    void match.route.screen?.().then(
      (screen) => {
        loaded.set(name, screen);
        if (active) setVersion((version) => version + 1);
      },
      // A chunk that cannot be fetched (offline, or an update replaced the build): say so instead of waiting forever.
      () => active && setFailed(name),
    );
    return () => {
      active = false;
    };
  }, [name]);

  useEffect(() => {
    document.title = `${match?.route.title ?? 'Page not found'} · ${APP_NAME}`;
    if (firstRender.current) firstRender.current = false;
    else document.getElementById(mainId)?.focus();
  }, [location.path]);

  if (!match || !name) {
    return (
      <EmptyState title="Page not found">
        There is nothing at this address. <Link href="/admin">Go to the start page</Link>.
      </EmptyState>
    );
  }
  if (failed === name) {
    return (
      <EmptyState title="This page could not be loaded">
        Check your connection and <a href={location.path}>reload the page</a>.
      </EmptyState>
    );
  }
  const Screen = loaded.get(name);
  return Screen ? <Screen key={location.path} params={match.params} /> : <p class="loading" role="status">Loading…</p>;
}
