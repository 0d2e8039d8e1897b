// The editor's side panel: status and publish date, the URL key (slug), the
// language being edited, who wrote it and when, versions, and the trash.
import { useState } from 'preact/hooks';
import type { ContentType, Entry, EntryStatus } from '../../api/types.ts';
import { authorName } from '../../content/authors.ts';
import { STATUS_HINTS, STATUS_LABELS, STATUSES } from '../../content/entry-status.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { Link, setQuery } from '../../router/router.tsx';
import { pathTo } from '../../routes.ts';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Field } from '../../ui/field.tsx';
import type { FormValues } from './entry-form.ts';
import { isoOf, localDateTime } from './inputs/basic-inputs.tsx';

export interface EntrySidePanelProps {
  type: ContentType;
  entry: Entry | undefined;
  values: FormValues;
  onValues: (values: FormValues) => void;
  locale: string | undefined;
  errors: Record<string, string>;
  authors: Map<string, string>;
  onDeleteTranslation: () => Promise<void>;
  onTrash: () => Promise<void>;
}

/** Everything about the entry that is not one of its fields. */
export function EntrySidePanel(props: EntrySidePanelProps) {
  const { type, entry, values, onValues, errors } = props;
  const { can } = useSignedIn();
  const mayPublish = can('content.publish');
  const showDate = values.status === 'scheduled' || values.status === 'published';
  // Published is greyed out for someone the server would refuse it to: the status's hint says why.
  const whyNotPublished = !mayPublish && values.status !== 'published' ? ' You cannot publish: save it, and someone who may publish can.' : '';
  return (
    <aside class="entry-panel" aria-label="Entry settings">
      <Field label="Status" error={errors.status} hint={STATUS_HINTS[values.status] + whyNotPublished}>
        {(control) => (
          <select {...control} class="input" value={values.status} onChange={(event) => onValues({ ...values, status: event.currentTarget.value as EntryStatus })}>
            {STATUSES.map((status) => (
              <option key={status} value={status} disabled={!mayPublish && status === 'published' && values.status !== 'published'}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {showDate && (
        <Field label="Publish date" error={errors.published_at} required={values.status === 'scheduled'} hint={values.status === 'published' && !values.published_at ? 'Set to now when first published.' : undefined}>
          {(control) => (
            <input {...control} type="datetime-local" class="input" value={localDateTime(values.published_at ?? '')} onInput={(event) => onValues({ ...values, published_at: isoOf(event.currentTarget.value) ?? null })} />
          )}
        </Field>
      )}
      {!type.singleton && (
        <Field label="Slug (address)" error={errors.slug} hint={entry ? undefined : 'Leave empty to make it from the title.'}>
          {(control) => <input {...control} type="text" class="input" value={values.slug} onInput={(event) => onValues({ ...values, slug: event.currentTarget.value })} />}
        </Field>
      )}
      {type.locales.length > 0 && <LanguagePanel {...props} />}
      {entry && <EntryFacts entry={entry} authors={props.authors} />}
      {entry && <TrashButton title={entry.title} onTrash={props.onTrash} />}
    </aside>
  );
}

function LanguagePanel({ type, entry, locale, onDeleteTranslation }: EntrySidePanelProps) {
  const [confirm, setConfirm] = useState(false);
  const current = locale ?? type.default_locale;
  const saved = entry?.translations ?? [];
  const mayDelete = entry && current !== type.default_locale && saved.includes(current);
  return (
    <div class="entry-panel__section">
      <Field label="Language" hint={entry && !saved.includes(current) ? `Not translated yet: showing ${type.default_locale}. Saving creates the ${current} version.` : undefined}>
        {(control) => (
          <select {...control} class="input" value={current} onChange={(event) => setQuery({ locale: event.currentTarget.value === type.default_locale ? undefined : event.currentTarget.value })}>
            {type.locales.map((code) => (
              <option key={code} value={code}>
                {code}
                {code === type.default_locale ? ' (default)' : ''}
                {entry ? (saved.includes(code) ? ', saved' : ', missing') : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
      {mayDelete && (
        <>
          <Button variant="quiet" onClick={() => setConfirm(true)}>
            Delete the {current} translation
          </Button>
          <ConfirmDialog open={confirm} title={`Delete the ${current} translation?`} confirmLabel={`Delete ${current}`} danger onConfirm={onDeleteTranslation} onClose={() => setConfirm(false)}>
            The {current} title and texts are deleted for good; the other languages stay.
          </ConfirmDialog>
        </>
      )}
    </div>
  );
}

function EntryFacts({ entry, authors }: { entry: Entry; authors: Map<string, string> }) {
  const versions = pathTo('versions', { type: entry.type, id: entry.id });
  const by = (actor: string | undefined) => authorName(actor, authors);
  return (
    <div class="entry-panel__section">
      <dl class="facts">
        <dt>Created</dt>
        <dd>
          {formatDateTime(entry.created_at)}
          {by(entry.author_id) && ` by ${by(entry.author_id)}`}
        </dd>
        <dt>Last changed</dt>
        <dd>
          {formatDateTime(entry.updated_at)}
          {by(entry.updated_by) && ` by ${by(entry.updated_by)}`}
        </dd>
      </dl>
      {versions && <Link href={versions}>Versions</Link>}
    </div>
  );
}

function TrashButton({ title, onTrash }: { title: string; onTrash: () => Promise<void> }) {
  const { can } = useSignedIn();
  const [confirm, setConfirm] = useState(false);
  if (!can('content.delete')) return null;
  return (
    <>
      <Button variant="danger" onClick={() => setConfirm(true)}>
        Delete entry
      </Button>
      <ConfirmDialog open={confirm} title="Delete this entry?" confirmLabel="Delete entry" danger onConfirm={onTrash} onClose={() => setConfirm(false)}>
        “{title}” moves to the trash, with all its languages. You can restore it from there.
      </ConfirmDialog>
    </>
  );
}
