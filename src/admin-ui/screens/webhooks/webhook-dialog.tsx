// Creating or changing one webhook: URL, events, an optional signing secret
// (left empty, a saved secret is kept), batched delivery, on or off. The API takes the whole
// list, so the others are sent as they are.
import { useState } from 'preact/hooks';
import { saveWebhooks, type Webhook } from '../../api/operations.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { TextField } from '../../ui/field.tsx';
import { useAction } from '../../ui/status.tsx';
import { inputsOf } from './webhook-inputs.ts';

export interface WebhookDialogProps {
  webhook: Webhook | undefined;
  all: Webhook[];
  events: string[];
  onClose: () => void;
  onSaved: (webhooks: Webhook[]) => void;
}

export function WebhookDialog({ webhook, all, events, onClose, onSaved }: WebhookDialogProps) {
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [chosen, setChosen] = useState<string[]>(webhook?.events ?? ['content.published']);
  const [secret, setSecret] = useState('');
  const [removeSecret, setRemoveSecret] = useState(false);
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true);
  const [batch, setBatch] = useState(webhook?.batch ?? false);
  const save = useAction({ progress: 'Saving the webhook…', success: 'Webhook saved.' });
  const position = webhook ? all.findIndex((hook) => hook.id === webhook.id) : all.length;
  const fieldError = (name: string) => save.fieldErrors[`webhooks.${position}.${name}`];
  const submit = async (event: Event) => {
    event.preventDefault();
    const mine = { ...(webhook ? { id: webhook.id } : {}), url, events: chosen, enabled, batch, ...(removeSecret ? { secret: null } : secret ? { secret } : {}) };
    const others = inputsOf(all);
    const list = webhook ? others.map((hook) => (hook.id === webhook.id ? mine : hook)) : [...others, mine];
    const saved = await save.run(() => saveWebhooks(list));
    if (saved) onSaved(saved);
  };
  return (
    <Dialog
      open
      wide
      title={webhook ? 'Edit webhook' : 'New webhook'}
      onClose={onClose}
      actions={
        <>
          <Button type="submit" form="webhook-form" variant="primary" busy={save.busy}>
            Save
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </>
      }
    >
      <form id="webhook-form" onSubmit={submit} noValidate>
        {save.error && !Object.keys(save.fieldErrors).length && <p class="form-error" role="alert">{save.error.message}</p>}
        <TextField label="URL" type="url" hint="Where the POST goes, e.g. https://example.com/hooks/cms" value={url} onValue={setUrl} error={fieldError('url')} required />
        <fieldset class="field field-group">
          <legend>Send when</legend>
          <div class="checkbox-columns">
            {events.map((name) => (
              <label key={name} class="check">
                <input type="checkbox" checked={chosen.includes(name)} onChange={(event) => setChosen(event.currentTarget.checked ? [...chosen, name] : chosen.filter((other) => other !== name))} /> {name}
              </label>
            ))}
          </div>
          {fieldError('events') && <p class="field__error">{fieldError('events')}</p>}
        </fieldset>
        <TextField
          label="Signing secret"
          type="password"
          autoComplete="off"
          hint={webhook?.has_secret ? 'A secret is saved; leave empty to keep it.' : 'Optional: deliveries are then signed (X-Service-Signature).'}
          value={secret}
          onValue={setSecret}
          error={fieldError('secret')}
        />
        {webhook?.has_secret && (
          <label class="check">
            <input type="checkbox" checked={removeSecret} onChange={(event) => setRemoveSecret(event.currentTarget.checked)} /> Remove the saved secret
          </label>
        )}
        <label class="check">
          <input type="checkbox" checked={batch} aria-describedby="webhook-batch-hint" onChange={(event) => setBatch(event.currentTarget.checked)} /> One event per commit (content.batch)
        </label>
        <p id="webhook-batch-hint" class="field__hint">For site builds: the entry events of one save or git commit arrive together, as one list, and so do the media files of one upload, delete or backup restore (media.batch).</p>
        <label class="check">
          <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.currentTarget.checked)} /> On
        </label>
      </form>
    </Dialog>
  );
}
