// One earlier version next to the entry as it is now: each field that
// differs, long texts line by line, and a button that restores the version.
import { useEffect, useId, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { getRevision, restoreRevision, type Revision, type RevisionDetail } from '../../api/revisions.ts';
import type { ContentType, Entry } from '../../api/types.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { navigate } from '../../router/router.tsx';
import { pathTo } from '../../routes.ts';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useStatus } from '../../ui/status.tsx';
import { differences, displayValue, lineDiff, type FieldDifference } from './version-diff.ts';

export function RevisionComparison({ type, current, revision }: { type: ContentType; current: Entry; revision: Revision }) {
  const { can } = useSignedIn();
  const status = useStatus();
  const [detail, setDetail] = useState<RevisionDetail>();
  const [error, setError] = useState<string>();
  const [isConfirming, setConfirming] = useState(false);
  const sameId = useId();
  useEffect(() => {
    getRevision(type.name, current.id, revision.id).then(setDetail, (failure: unknown) =>
      setError(failure instanceof ApiError ? failure.message : 'This version could not be loaded.'),
    );
  }, [revision.id]);
  const when = formatDateTime(revision.created_at);
  const restore = async () => {
    await restoreRevision(type.name, current.id, revision.id);
    status.show('success', `Restored the version of ${when}.`);
    const editor = pathTo('entry', { type: type.name, id: current.id });
    if (editor) navigate(editor);
  };

  if (error) return <p class="form-error" role="alert">{error}</p>;
  if (!detail) return <p class="loading">Loading the version…</p>;
  if (!detail.entry) return <p class="versions__hint">This save removed the entry; there is nothing to compare.</p>;
  const changed = differences(type, detail.entry, current);
  return (
    <section class="revision-comparison" aria-labelledby="comparison-title">
      <header class="revision-comparison__header">
        <h2 id="comparison-title">The version of {when} compared with now</h2>
        {/* With nothing to restore, the paragraph that says so (in place of the differences) is the button's reason. */}
        {can('content.update') && (
          <Button onClick={() => setConfirming(true)} disabled={changed.length === 0} aria-describedby={changed.length === 0 ? sameId : undefined}>
            Restore this version
          </Button>
        )}
      </header>
      {changed.length === 0 ? (
        <p id={sameId} class="versions__hint">
          This version has the same values as the entry now.
        </p>
      ) : (
        <dl class="field-changes">
          {changed.map((difference) => (
            <FieldChange key={difference.field} difference={difference} />
          ))}
        </dl>
      )}
      <ConfirmDialog open={isConfirming} title="Restore this version?" confirmLabel="Restore" onConfirm={restore} onClose={() => setConfirming(false)}>
        The entry gets the values it had on {when}. What it holds now stays among its versions, so this can be undone.
      </ConfirmDialog>
    </section>
  );
}

function FieldChange({ difference }: { difference: FieldDifference }) {
  const { label, then, now, isText } = difference;
  const lines = isText && typeof then === 'string' && typeof now === 'string' ? lineDiff(then, now) : undefined;
  return (
    <div class="field-change">
      <dt>{label}</dt>
      <dd>
        {lines ? (
          <pre class="line-diff">
            {lines.map((line, index) =>
              line.kind === 'same' ? (
                <span key={index}>{`  ${line.text}\n`}</span>
              ) : line.kind === 'removed' ? (
                <del key={index}>{`- ${line.text}\n`}</del>
              ) : (
                <ins key={index}>{`+ ${line.text}\n`}</ins>
              ),
            )}
          </pre>
        ) : (
          <div class="value-change">
            <p>
              <span class="value-change__label">Then</span> <del>{displayValue(then)}</del>
            </p>
            <p>
              <span class="value-change__label">Now</span> <ins>{displayValue(now)}</ins>
            </p>
          </div>
        )}
      </dd>
    </div>
  );
}
