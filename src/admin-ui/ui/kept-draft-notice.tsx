// The offer a screen shows when useKeptDraft() found unsaved changes from an
// earlier visit: restore them or throw them away.
import type { KeptDraft } from '../session/kept-drafts.ts';
import { Button } from './button.tsx';

/** Shown while `draft.offered` is set; `onRestore` receives the kept values. */
export function KeptDraftNotice<T>({ draft, onRestore }: { draft: KeptDraft<T>; onRestore: (value: T) => void }) {
  if (!draft.offered) return null;
  const when = new Date(draft.offered.savedAt).toLocaleString();
  return (
    <div class="notice" role="region" aria-label="Unsaved changes">
      <p>You have unsaved changes from {when}.</p>
      <div class="notice__actions">
        <Button
          variant="primary"
          onClick={() => {
            const value = draft.take();
            if (value !== undefined) onRestore(value);
          }}
        >
          Restore my changes
        </Button>
        <Button onClick={draft.discard}>Discard them</Button>
      </div>
    </div>
  );
}
