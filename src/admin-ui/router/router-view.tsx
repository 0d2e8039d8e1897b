// Draws the screen of the current route inside the shell's <main>: loads the
// screen's chunk on first visit, sets the window title, and moves focus to
// the main region after in-app navigation so screen readers hear the change.
import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { matchRoute, type RouteDefinition, type RouteName, type ScreenProps } from '../routes.ts';
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

const loading = new Map<RouteName, Promise<ComponentType<ScreenProps>>>();

// Loads a screen's chunk once, however many ask for it.
function loadScreen(name: RouteName, route: RouteDefinition): Promise<ComponentType<ScreenProps>> {
  let pending = loading.get(name);
  if (!pending && route.screen) {
    pending = route.screen().then((screen) => {
      loaded.set(name, screen);
      return screen;
    });
    pending.catch(() => loading.delete(name));
    loading.set(name, pending);
  }
  return pending ?? Promise.reject(new Error(`The screen "${name}" is not built.`));
}

/**
 * Starts loading the screen of `path` straight away, while the session is
 * still being checked, so the screen's code is not fetched only after that.
 */
export function preloadScreen(path: string): void {
  const match = matchRoute(path.replace(/\/+$/, '') || '/');
  if (match?.route.screen) loadScreen(match.name, match.route).catch(() => undefined);
}

/** The current route's screen, or a "page not found" message for paths without one. */
export function RouterView({ mainId }: { mainId: string }) {
  const location = useLocation();
  const match = matchRoute(location.path);
  const name = match?.route.screen ? match.name : undefined;
  const [, setVersion] = useState(0);
  const [failed, setFailed] = useState<RouteName>();
  const firstRender = useRef(true);

  const Screen = name ? loaded.get(name) : undefined;
  // Keyed on whether this render had the screen: a preload that finished in between still redraws.
  useEffect(() => {
    if (!match || !name || Screen) return;
    let active = true;
    loadScreen(name, match.route).then(
      () => active && setVersion((version) => version + 1),
      // A chunk that cannot be fetched (offline, or an update replaced the build): say so instead of waiting forever.
      () => active && setFailed(name),
    );
    return () => {
      active = false;
    };
  }, [name, Screen]);

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
  return Screen ? <Screen key={location.path} params={match.params} /> : <p class="loading" role="status">Loading…</p>;
}
