// Unsaved edits survive the end of a session: while a form has changes, its
// values are kept in local storage (per user, workspace and form), and after
// the next sign-in the same screen offers them back. A save forgets them; a
// deliberate sign-out forgets all of that user's.
import { useEffect, useState } from 'preact/hooks';
import { useSignedIn } from './session.tsx';

const PREFIX = 'cms.draft.';

/** What was kept from before, and what the screen can do about it. */
export interface KeptDraft<T> {
  /** The values kept from an earlier visit (e.g. before the session ended), or undefined. */
  offered: { value: T; savedAt: string } | undefined;
  /** Hands the kept values over to the form (which keeps them from now on) and hides the offer. */
  take(): T | undefined;
  /** Drops the kept values and hides the offer. */
  discard(): void;
  /** Forgets the kept values; call it after a successful save. */
  clear(): void;
}

/**
 * Keeps `value` while `isDirty`, under `name` (unique per screen and record,
 * e.g. `entry:posts:abc123`). On mount it offers what an earlier visit kept.
 */
export function useKeptDraft<T>(name: string, value: T, isDirty: boolean): KeptDraft<T> {
  const { user, workspace } = useSignedIn();
  const key = `${PREFIX}${user.id}.${workspace}.${name}`;
  const [offered, setOffered] = useState(() => read<T>(key));

  useEffect(() => {
    if (isDirty) localStorage.setItem(key, JSON.stringify({ value, savedAt: new Date().toISOString() }));
  }, [key, value, isDirty]);

  return {
    offered,
    take: () => {
      setOffered(undefined);
      return offered?.value;
    },
    discard: () => {
      localStorage.removeItem(key);
      setOffered(undefined);
    },
    clear: () => localStorage.removeItem(key),
  };
}

/** Forgets every draft kept for `userId` (deliberate sign-out on a shared computer). */
export function forgetKeptDrafts(userId: string): void {
  const prefix = `${PREFIX}${userId}.`;
  for (const key of Object.keys(localStorage)) if (key.startsWith(prefix)) localStorage.removeItem(key);
}

function read<T>(key: string): { value: T; savedAt: string } | undefined {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as { value: T; savedAt: string }) : undefined;
  } catch {
    return undefined;
  }
}
