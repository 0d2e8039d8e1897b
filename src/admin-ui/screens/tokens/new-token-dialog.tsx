// Creating a token: name, optional expiry, grants (the same editor as
// roles). Once created, the plain token is shown here only, with a copy
// button and a warning that it will not be shown again.
import { useState } from 'preact/hooks';
import { createToken } from '../../api/people.ts';
import { grantOf, newGrantDraft, type GrantDraft } from '../../grants/grant-draft.ts';
import { GrantsEditor } from '../../grants/grants-editor.tsx';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field, TextField } from '../../ui/field.tsx';
import { useAction } from '../../ui/status.tsx';
import { useGrantContext } from '../roles/use-grant-context.ts';

export function NewTokenDialog({ onClose }: { onClose: () => void }) {
  const context = useGrantContext();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [grants, setGrants] = useState<GrantDraft[]>(() => [{ ...newGrantDraft(), actions: ['content.read'] }]);
  const [plain, setPlain] = useState<string>();
  const [copied, setCopied] = useState(false);
  const save = useAction({ progress: 'Creating the token…', success: 'Token created.' });
  const submit = async (event: Event) => {
    event.preventDefault();
    const created = await save.run(() => createToken({ name, expires_at: expires ? new Date(expires).toISOString() : null, permissions: grants.map(grantOf) }));
    if (created) setPlain(created.token);
  };
  if (plain) {
    return (
      <Dialog open wide title="Your new token" onClose={onClose} actions={<Button variant="primary" onClick={onClose}>Done</Button>}>
        <p class="notice">Copy it now: this is the only time it is shown. If it is lost, revoke it and make a new one.</p>
        <Field label="Token">
          {(control) => (
            <div class="copy-field">
              <input {...control} class="input input--code" readOnly value={plain} />
              <Button onClick={() => void navigator.clipboard.writeText(plain).then(() => setCopied(true))}>{copied ? 'Copied' : 'Copy'}</Button>
            </div>
          )}
        </Field>
      </Dialog>
    );
  }
  return (
    <Dialog
      open
      wide
      title="New API token"
      onClose={onClose}
      actions={
        <>
          <Button type="submit" form="token-form" variant="primary" busy={save.busy}>
            Create the token
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </>
      }
    >
      <form id="token-form" onSubmit={submit} noValidate>
        {save.error && !Object.keys(save.fieldErrors).length && (
          <p class="form-error" role="alert">
            {save.error.message}
          </p>
        )}
        <TextField label="Name" hint="Who uses it, e.g. “Website build”." value={name} onValue={setName} error={save.fieldErrors.name} required />
        <Field label="Expires" hint="Empty for a token that does not expire." error={save.fieldErrors.expires_at}>
          {(control) => <input {...control} type="date" class="input" value={expires} onInput={(event) => setExpires(event.currentTarget.value)} />}
        </Field>
        {context ? <GrantsEditor grants={grants} onChange={setGrants} {...context} errors={save.fieldErrors} /> : <p class="loading">Loading…</p>}
      </form>
    </Dialog>
  );
}
