// The workspaces screen creates, renames, archives and brings back
// workspaces; the switcher must show that at once. The live stream carries no
// workspace events, so the screen announces each change it saved here.
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

/** Says the list of workspaces changed (after a save on the workspaces screen). */
export function announceWorkspacesChanged(): void {
  for (const listener of listeners) listener();
}

/** A number that grows with each announced change: a dependency for reloading the list. */
export function useWorkspacesGeneration(): number {
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const bump = () => setGeneration((count) => count + 1);
    listeners.add(bump);
    return () => void listeners.delete(bump);
  }, []);
  return generation;
}
