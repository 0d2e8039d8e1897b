// Who is signed in, in which workspace, and what they may do. The app shows
// setup, sign-in or the shell from this state alone. A request that finds the
// session gone (401 unauthenticated) turns it into "signed out, expired":
// the sign-in screen then says so, and kept drafts are offered back after it.
import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, onSignedOut, setCsrfToken, setWorkspace } from '../api/client.ts';
import { fetchMe, signOut as endSession } from '../api/session.ts';
import type { Capabilities, User } from '../api/types.ts';
import { navigate } from '../router/router.tsx';
import { forgetKeptDrafts } from './kept-drafts.ts';

/** The signed-in part of the state. */
export interface SignedIn {
  status: 'signed-in';
  user: User;
  /** The selected workspace's slug. */
  workspace: string;
  capabilities: Capabilities;
}

/** Where the app is: still asking, first run, signed out (maybe because the session ended), or signed in. */
export type SessionState = { status: 'loading' } | { status: 'setup' } | { status: 'signed-out'; expired: boolean } | SignedIn;

interface SessionApi {
  state: SessionState;
  /** After setup or sign-in: remembers the CSRF token and loads the user's capabilities. */
  signedIn(csrfToken: string): Promise<void>;
  /** Signs out on purpose: the session ends and this user's kept drafts are forgotten. */
  signOut(): Promise<void>;
  /** Selects another workspace and goes to its start page. */
  switchWorkspace(slug: string): Promise<void>;
  /** Reads the session again (GET /me), e.g. when the live stream dropped. */
  refresh(): Promise<void>;
  /** Replaces the signed-in user's record after they edited their profile. */
  setUser(user: User): void;
}

const WORKSPACE_KEY = 'cms.workspace';
const SessionContext = createContext<SessionApi | undefined>(undefined);

/** Loads and holds the session; wraps the whole app once. */
export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  const api = useMemo<SessionApi>(() => {
    const load = async () => {
      try {
        const me = await fetchMe();
        setCsrfToken(me.meta.csrf_token);
        setWorkspace(me.meta.workspace);
        setState({ status: 'signed-in', user: me.data, workspace: me.meta.workspace, capabilities: me.meta.can });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_set_up') setState({ status: 'setup' });
        // The client's signed-out handler has already marked a lost session as expired.
        else if (error instanceof ApiError && error.code === 'unauthenticated') setState((previous) => (previous.status === 'signed-out' ? previous : { status: 'signed-out', expired: false }));
        else throw error;
      }
    };
    return {
      state: { status: 'loading' },
      signedIn: async (csrfToken) => {
        setCsrfToken(csrfToken);
        await load();
      },
      signOut: async () => {
        // A session that has already ended is as good as ended now.
        await endSession().catch((error: unknown) => {
          if (!(error instanceof ApiError && error.code === 'unauthenticated')) throw error;
        });
        setState((previous) => {
          if (previous.status === 'signed-in') forgetKeptDrafts(previous.user.id);
          return { status: 'signed-out', expired: false };
        });
        setCsrfToken(undefined);
        navigate('/admin', { replace: true });
      },
      switchWorkspace: async (slug) => {
        localStorage.setItem(WORKSPACE_KEY, slug);
        setWorkspace(slug);
        if (navigate('/admin')) await load();
      },
      refresh: load,
      setUser: (user) => setState((previous) => (previous.status === 'signed-in' ? { ...previous, user } : previous)),
    };
  }, []);

  useEffect(() => {
    setWorkspace(localStorage.getItem(WORKSPACE_KEY) ?? undefined);
    onSignedOut(() => setState((previous) => (previous.status === 'signed-in' ? { status: 'signed-out', expired: true } : previous)));
    void api.refresh();
  }, []);

  const value = useMemo(() => ({ ...api, state }), [api, state]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session and its actions. */
export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() needs a <SessionProvider> above it.');
  return session;
}

/** For screens inside the shell: the signed-in user, the workspace and `can(action)` from GET /me's `meta.can`. */
export function useSignedIn(): SignedIn & { can: (action: string) => boolean } {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useSignedIn() is for screens shown to a signed-in user.');
  return { ...state, can: (action) => state.capabilities[action] === true };
}
