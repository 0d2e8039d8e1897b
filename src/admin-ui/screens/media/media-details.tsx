// One file in full: the image, its sizes and URLs (with copy buttons), alt
// text and title, visibility, category, rename (naming the entries that get
// the new name) and delete.
import { useEffect, useState } from 'preact/hooks';
import { deleteMedia, mediaUsedBy, moveMedia, renameMedia, setMediaVisibility, updateMediaMeta, type MediaItem, type MediaUse } from '../../api/media.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Field, SelectField, TextField } from '../../ui/field.tsx';
import { categoryOptions } from './category-options.ts';
import { useAction } from '../../ui/status.tsx';
import { formatBytes } from './upload-queue.ts';

export function MediaDetails({ item, categories, onClose, onChanged }: { item: MediaItem; categories: string[]; onClose: () => void; onChanged: () => void }) {
  const { can } = useSignedIn();
  const mayEdit = can('media.update');
  const [meta, setMeta] = useState({ alt: item.alt, title: item.title });
  const [newName, setNewName] = useState(item.filename);
  const [usedBy, setUsedBy] = useState<MediaUse[]>();
  const [isDeleting, setDeleting] = useState(false);
  const save = useAction({ progress: 'Saving…', success: 'Saved.' });
  const rename = useAction({ progress: 'Renaming…', success: 'Renamed.' });
  useEffect(() => {
    mediaUsedBy(item.filename).then(setUsedBy, () => setUsedBy([]));
  }, [item.filename]);
  const change = async (task: () => Promise<unknown>) => {
    if ((await save.run(task)) !== undefined) onChanged();
  };
  const doRename = async () => {
    if ((await rename.run(() => renameMedia(item.filename, newName))) !== undefined) {
      onChanged();
      onClose();
    }
  };
  return (
    <Dialog open title={item.filename} onClose={onClose} wide actions={<Button onClick={onClose}>Close</Button>}>
      <div class="media-details">
        <div class="media-details__preview">
          {item.mime.startsWith('image/') ? <img src={item.url} alt={item.alt} /> : <p class="field__hint">{item.mime}</p>}
        </div>
        <div>
          <dl class="facts">
            <dt>Type</dt>
            <dd>{item.mime}</dd>
            <dt>Size</dt>
            <dd>
              {formatBytes(item.size)}
              {item.width && item.height ? ` · ${item.width} × ${item.height} px` : ''}
            </dd>
            <dt>Uploaded</dt>
            <dd>{formatDateTime(item.uploaded_at)}</dd>
          </dl>
          <CopyUrl label="File URL" url={item.url} />
          {item.thumb_url !== item.url && <CopyUrl label="Thumbnail URL" url={item.thumb_url} />}
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void change(() => updateMediaMeta(item.filename, meta));
            }}
          >
            <TextField label="Alt text" hint="What the image shows, for people who cannot see it." value={meta.alt} onValue={(alt) => setMeta({ ...meta, alt })} disabled={!mayEdit} error={save.fieldErrors.alt} />
            <TextField label="Title" value={meta.title} onValue={(title) => setMeta({ ...meta, title })} disabled={!mayEdit} error={save.fieldErrors.title} />
            {mayEdit && (
              <Button type="submit" busy={save.busy}>
                Save alt text and title
              </Button>
            )}
          </form>
          {mayEdit && (
            <>
              <SelectField label="Who can open the file URL" value={item.visibility} options={VISIBILITY_OPTIONS} onValue={(visibility) => void change(() => setMediaVisibility([item.filename], visibility as MediaItem['visibility']))} />
              <SelectField label="Category" value={item.category} options={categoryOptions(categories, 'No category')} onValue={(category) => void change(() => moveMedia([item.filename], category))} />
              <TextField label="File name" value={newName} onValue={setNewName} error={rename.fieldErrors.filename} hint={usedByHint(usedBy)} />
              <Button onClick={doRename} busy={rename.busy} disabled={newName === item.filename}>
                Rename
              </Button>
            </>
          )}
          {usedBy && usedBy.length > 0 && (
            <ul class="media-details__uses" aria-label="Entries that use this file">
              {usedBy.map((use) => (
                <li key={`${use.type}/${use.id}`}>
                  {use.title} <span class="field__hint">({use.type})</span>
                </li>
              ))}
            </ul>
          )}
          {can('media.delete') && (
            <p>
              <Button variant="danger" onClick={() => setDeleting(true)}>
                Delete this file
              </Button>
            </p>
          )}
        </div>
      </div>
      <ConfirmDialog
        open={isDeleting}
        title={`Delete ${item.filename}?`}
        confirmLabel="Delete for good"
        danger
        onConfirm={async () => {
          await deleteMedia([item.filename]);
          onChanged();
          onClose();
        }}
        onClose={() => setDeleting(false)}
      >
        The file is deleted for good.{usedBy && usedBy.length > 0 ? ` ${usedBy.length} ${usedBy.length === 1 ? 'entry uses' : 'entries use'} it and will show no file there.` : ''}
      </ConfirmDialog>
    </Dialog>
  );
}

const VISIBILITY_OPTIONS: [string, string][] = [
  ['public', 'Everyone (public)'],
  ['private', 'Only signed-in users and allowed tokens (private)'],
];

function usedByHint(usedBy: MediaUse[] | undefined): string {
  if (!usedBy || usedBy.length === 0) return 'No entry uses this file.';
  return `${usedBy.length} ${usedBy.length === 1 ? 'entry uses' : 'entries use'} this file (listed below); a rename updates ${usedBy.length === 1 ? 'it' : 'them'} in the same save.`;
}

function CopyUrl({ label, url }: { label: string; url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Field label={label}>
      {(control) => (
        <div class="copy-field">
          <input {...control} class="input" readOnly value={url} />
          <Button
            onClick={() =>
              void navigator.clipboard.writeText(url).then(() => {
                setCopied(true);
                setTimeout(() => setCopied(false), 2000);
              })
            }
            aria-label={`Copy ${label}`}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </div>
      )}
    </Field>
  );
}
