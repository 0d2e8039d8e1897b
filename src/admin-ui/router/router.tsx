// A small client-side router over the History API: the current location as
// a hook, navigate(), <Link>, and a guard for unsaved changes. The route
// table itself is routes.ts; <RouterView> (router-view.tsx) renders it.
import type { ComponentChildren, TargetedMouseEvent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** The current path and query. */
export interface AppLocation {
  path: string;
  query: URLSearchParams;
}

const listeners = new Set<() => void>();
const leaveGuards = new Set<() => boolean>();
const LEAVE_QUESTION = 'You have unsaved changes. Leave this page and lose them?';

function current(): AppLocation {
  return { path: window.location.pathname.replace(/\/+$/, '') || '/', query: new URLSearchParams(window.location.search) };
}

window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

/** The location, re-rendering the caller when it changes. */
export function useLocation(): AppLocation {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return location;
}

/**
 * Goes to `to` (a path under /admin, with an optional query). Asks first when
 * a screen has unsaved changes (useLeaveGuard); returns false when the user stays.
 */
export function navigate(to: string, options: { replace?: boolean } = {}): boolean {
  if ([...leaveGuards].some((isDirty) => isDirty()) && !window.confirm(LEAVE_QUESTION)) return false;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  listeners.forEach((listener) => listener());
  return true;
}

/** Replaces the query of the current location (filters, paging, sort), keeping one history entry per change unless `replace`. */
export function setQuery(update: Record<string, string | undefined>, options: { replace?: boolean } = {}): void {
  const query = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined || value === '') query.delete(key);
    else query.set(key, value);
  }
  const text = query.toString();
  navigate(window.location.pathname + (text ? `?${text}` : ''), options);
}

/** While `isDirty` is true, navigating away (in the app or by closing the tab) asks first. */
export function useLeaveGuard(isDirty: boolean): void {
  useEffect(() => {
    if (!isDirty) return;
    const guard = () => true;
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    leaveGuards.add(guard);
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      leaveGuards.delete(guard);
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [isDirty]);
}

export interface LinkProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page';
  /** Runs before the navigation (e.g. to close a menu). */
  onClick?: () => void;
}

/** An in-app link: a plain <a href> that navigates without reloading (modified clicks open tabs as usual). */
export function Link({ onClick, ...props }: LinkProps) {
  const follow = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    onClick?.();
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.href);
  };
  return <a {...props} onClick={follow} />;
}
