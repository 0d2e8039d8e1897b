// The saved versions, newest first: when, who and what; the chosen one marked.
import type { Revision } from '../../api/revisions.ts';
import { formatDateTime } from '../../content/status-badge.tsx';

export function RevisionList({ revisions, chosen, onChoose }: { revisions: Revision[]; chosen: string | undefined; onChoose: (id: string) => void }) {
  return (
    <ol class="revision-list">
      {revisions.map((revision) => (
        <li key={revision.id}>
          <button type="button" class="revision-list__item" aria-current={revision.id === chosen ? 'true' : undefined} onClick={() => onChoose(revision.id)}>
            <span class="revision-list__when">
              {formatDateTime(revision.created_at)}
              {revision.current && <span class="revision-list__current"> · current</span>}
            </span>
            <span class="revision-list__who">{revision.author_id === null ? `${revision.author_name} (with git)` : revision.author_name}</span>
            <span class="revision-list__what">{revision.message}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
