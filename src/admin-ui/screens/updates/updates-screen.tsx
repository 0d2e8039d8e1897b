// Updates of the server: the version running, a check against the update
// feed, download, install, and the restart notice once installed.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { getUpdateStatus, runUpdateStep, type UpdateStatus } from '../../api/operations.ts';
import { useTitle } from '../../router/router-view.tsx';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { useAction } from '../../ui/status.tsx';

export function UpdatesScreen() {
  const { can } = useSignedIn();
  const [status, setStatus] = useState<UpdateStatus>();
  const [error, setError] = useState<string>();
  const step = useAction({ progress: 'Working…', success: 'Done.' });
  useEffect(() => {
    getUpdateStatus().then(setStatus, (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The update status could not be loaded.'));
  }, []);
  useTitle('Updates');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (!status) return <p class="loading">Loading…</p>;
  const run = async (name: 'check' | 'download' | 'install') => {
    const next = await step.run(() => runUpdateStep(name));
    if (next) setStatus(next);
  };
  return (
    <div class="screen">
      <h1>Updates</h1>
      <dl class="facts">
        <dt>Running</dt>
        <dd>{status.current_version}</dd>
        <dt>Latest</dt>
        <dd>{status.latest_version ?? 'Not checked yet'}</dd>
      </dl>
      <p aria-live="polite">{status.message}</p>
      {status.restart_required && <p class="notice">Version {status.installed?.version} is installed. Restart the server to run it.</p>}
      {!status.configured ? (
        <p class="field__hint">No update feed is configured (CMS_UPDATE_FEED), so updates are managed outside the app.</p>
      ) : (
        <div class="panel__actions">
          {can('updates.check') && (
            <Button onClick={() => void run('check')} busy={step.busy}>
              Check for updates
            </Button>
          )}
          {can('updates.download') && status.latest && status.latest_version !== status.current_version && !status.staged && (
            <Button onClick={() => void run('download')} busy={step.busy}>
              Download {status.latest_version}
            </Button>
          )}
          {can('updates.install') && status.staged && !status.restart_required && (
            <Button variant="primary" onClick={() => void run('install')} busy={step.busy}>
              Install {status.staged.version}
            </Button>
          )}
        </div>
      )}
      {status.latest?.notes && (
        <section aria-labelledby="release-notes">
          <h2 id="release-notes">What is new in {status.latest.version}</h2>
          <p class="pre-line">{status.latest.notes}</p>
        </section>
      )}
    </div>
  );
}
