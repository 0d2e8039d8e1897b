// The saved versions, newest first: what each did, who and when, and the
// commit's own text for changes made with git; the chosen one marked.
import type { Revision } from '../../api/revisions.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { versionWords } from './version-words.ts';

export function RevisionList({ revisions, chosen, onChoose }: { revisions: Revision[]; chosen: string | undefined; onChoose: (id: string) => void }) {
  // A restore names the version it went back to by a short id; on this page, it has a date.
  const whenOf = (shortId: string) => {
    const restored = revisions.find((revision) => revision.id.startsWith(shortId));
    return restored && formatDateTime(restored.created_at);
  };
  return (
    <ol class="revision-list">
      {revisions.map((revision) => {
        const { what, who, note } = versionWords(revision, whenOf);
        return (
          <li key={revision.id}>
            <button type="button" class="revision-list__item" aria-current={revision.id === chosen ? 'true' : undefined} onClick={() => onChoose(revision.id)}>
              <span class="revision-list__what">
                {what}
                {revision.current && <span class="revision-list__current"> · current</span>}
              </span>
              <span class="revision-list__who">
                {who} · {formatDateTime(revision.created_at)}
              </span>
              {note && <span class="revision-list__note">{note}</span>}
            </button>
          </li>
        );
      })}
    </ol>
  );
}
