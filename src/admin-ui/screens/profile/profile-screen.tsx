// The signed-in user's own profile: name and email, password change, avatar.
// It is also the model screen for authors of the others: API calls through
// api/*.ts, useAction() for progress and 422 messages per field,
// useKeptDraft() so an edit survives the session ending, and a leave guard.
import { useState } from 'preact/hooks';
import { removeAvatar, updateProfile, uploadAvatar } from '../../api/profile.ts';
import { useLeaveGuard } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { useKeptDraft } from '../../session/kept-drafts.ts';
import { useSession, useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { Field, TextField } from '../../ui/field.tsx';
import { KeptDraftNotice } from '../../ui/kept-draft-notice.tsx';
import { useAction } from '../../ui/status.tsx';
import './profile-screen.css';

/** The profile screen. */
export function ProfileScreen() {
  useTitle('Your profile');
  return (
    <div class="screen profile">
      <h1>Your profile</h1>
      <DetailsForm />
      <AvatarForm />
      <PasswordForm />
    </div>
  );
}

function DetailsForm() {
  const { user } = useSignedIn();
  const session = useSession();
  const saved = { display_name: user.display_name, email: user.email };
  const [form, setForm] = useState(saved);
  const isDirty = form.display_name !== saved.display_name || form.email !== saved.email;
  const draft = useKeptDraft('profile', form, isDirty);
  const save = useAction({ progress: 'Saving your profile…', success: 'Profile saved.' });
  useLeaveGuard(isDirty);

  const submit = async (event: Event) => {
    event.preventDefault();
    const updated = await save.run(() => updateProfile(form));
    if (!updated) return;
    draft.clear();
    session.setUser(updated);
    setForm({ display_name: updated.display_name, email: updated.email });
  };

  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="profile-details">
      <h2 id="profile-details">Name and email</h2>
      <KeptDraftNotice draft={draft} onRestore={setForm} />
      <TextField label="Display name" autoComplete="name" value={form.display_name} onValue={(display_name) => setForm({ ...form, display_name })} error={save.fieldErrors.display_name} />
      <TextField label="Email" type="email" autoComplete="email" value={form.email} onValue={(email) => setForm({ ...form, email })} error={save.fieldErrors.email} />
      <div class="panel__actions">
        <Button type="submit" variant="primary" busy={save.busy} disabled={!isDirty}>
          Save
        </Button>
        {isDirty && <span class="unsaved">Unsaved changes</span>}
      </div>
    </form>
  );
}

function AvatarForm() {
  const { user } = useSignedIn();
  const session = useSession();
  const upload = useAction({ progress: 'Uploading your picture…', success: 'Picture updated.' });
  const remove = useAction({ progress: 'Removing your picture…', success: 'Picture removed.' });
  const onPick = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    const updated = await upload.run(() => uploadAvatar(file));
    input.value = '';
    if (updated) session.setUser(updated);
  };
  return (
    <section class="panel" aria-labelledby="profile-avatar">
      <h2 id="profile-avatar">Picture</h2>
      <div class="profile__avatar-row">
        <span class="avatar avatar--large" aria-hidden="true">
          {user.avatar_url ? <img src={user.avatar_url} alt="" /> : (user.display_name || user.username).slice(0, 1).toUpperCase()}
        </span>
        <Field label="Upload a picture" hint="PNG, JPEG, GIF or WebP, up to 2 MB." error={upload.error?.message}>
          {(control) => <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" {...control} onChange={onPick} disabled={upload.busy} />}
        </Field>
        {user.avatar_url && (
          <Button
            onClick={() =>
              void remove.run(removeAvatar).then((updated) => {
                if (updated) session.setUser(updated);
              })
            }
            busy={remove.busy}
          >
            Remove the picture
          </Button>
        )}
      </div>
    </section>
  );
}

function PasswordForm() {
  const empty = { old_password: '', password: '' };
  const [form, setForm] = useState(empty);
  const change = useAction({ progress: 'Changing your password…', success: 'Password changed.' });
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await change.run(() => updateProfile(form))) setForm(empty);
  };
  const wrongOld = change.error?.code === 'invalid_credentials' ? change.error.message : undefined;
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="profile-password">
      <h2 id="profile-password">Password</h2>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={form.old_password}
        onValue={(old_password) => setForm({ ...form, old_password })}
        error={change.fieldErrors.old_password ?? wrongOld}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters."
        value={form.password}
        onValue={(password) => setForm({ ...form, password })}
        error={change.fieldErrors.password}
      />
      <div class="panel__actions">
        <Button type="submit" busy={change.busy} disabled={!form.old_password || !form.password}>
          Change password
        </Button>
      </div>
    </form>
  );
}
