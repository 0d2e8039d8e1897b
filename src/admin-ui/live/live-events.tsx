// Live updates: one EventSource on GET /admin/api/events per signed-in tab,
// shared by every screen through useLiveEvents(). When the stream drops
// (server restart, session ended) it is closed and the session is read again:
// signed in → reconnect and tell subscribers to reload (onResume); signed out
// → the sign-in screen. The browser's own reconnect is never used, so an
// ended session never shows up as a failed request in the console.
import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useContext, useEffect, useMemo, useRef } from 'preact/hooks';
import { API_ROOT } from '../api/client.ts';
import type { LiveEvent } from '../api/types.ts';
import { useSession } from '../session/session.tsx';

interface Subscriber {
  onEvent(event: LiveEvent): void;
  onResume?(): void;
}

interface LiveHub {
  subscribers: Set<Subscriber>;
}

const RECONNECT_DELAY_MS = 2000;
const LiveContext = createContext<LiveHub | undefined>(undefined);

/** Keeps the stream open while `workspace` is signed in; wraps the shell once. */
export function LiveEventsProvider({ workspace, children }: { workspace: string; children: ComponentChildren }) {
  const hub = useMemo<LiveHub>(() => ({ subscribers: new Set() }), []);
  const session = useSession();
  const workspaceRef = useRef(workspace);
  workspaceRef.current = workspace;

  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let resumed = false;
    const open = () => {
      source = new EventSource(`${API_ROOT}/events`);
      source.addEventListener('ready', () => {
        if (resumed) hub.subscribers.forEach((subscriber) => subscriber.onResume?.());
        resumed = true;
      });
      source.onerror = () => {
        source?.close();
        if (stopped) return;
        retry = setTimeout(() => {
          // A lost session switches the app to sign-in (and unmounts this); otherwise reconnect.
          void session.refresh().then(() => !stopped && open(), () => !stopped && open());
        }, RECONNECT_DELAY_MS);
      };
      for (const name of EVENT_NAMES) {
        source.addEventListener(name, (message) => {
          const event = JSON.parse((message as MessageEvent<string>).data) as LiveEvent;
          if (event.workspace === workspaceRef.current) hub.subscribers.forEach((subscriber) => subscriber.onEvent(event));
        });
      }
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, []);

  return <LiveContext.Provider value={hub}>{children}</LiveContext.Provider>;
}

// The event names the stream carries (API.md "Webhooks"); EventSource needs each one named.
const EVENT_NAMES = [
  'content.created', 'content.updated', 'content.published', 'content.unpublished', 'content.deleted',
  'content.restored', 'content.purged', 'schema.created', 'schema.updated', 'schema.deleted',
  'media.uploaded', 'media.updated', 'media.deleted',
];

/** What a screen listens to. */
export interface LiveOptions {
  /** Event names or prefixes, e.g. `['content.']` or `['schema.updated']`. */
  events: string[];
  /** Called for each matching event of the selected workspace. */
  onEvent: (event: LiveEvent) => void;
  /** Called after the stream reconnected; events may have been missed, so reload. */
  onResume?: () => void;
}

/** Subscribes the calling screen to live updates while it is shown. */
export function useLiveEvents(options: LiveOptions): void {
  const hub = useContext(LiveContext);
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    if (!hub) return;
    const subscriber: Subscriber = {
      onEvent: (event) => {
        if (latest.current.events.some((prefix) => event.event.startsWith(prefix))) latest.current.onEvent(event);
      },
      onResume: () => latest.current.onResume?.(),
    };
    hub.subscribers.add(subscriber);
    return () => void hub.subscribers.delete(subscriber);
  }, [hub]);
}
