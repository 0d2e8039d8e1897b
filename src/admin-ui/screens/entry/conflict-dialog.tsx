// "Someone else changed this": the fields where their version and the
// editor's differ, side by side, each with a choice of theirs or mine. The
// merge becomes the form, and saving goes on top of their version.
import { useMemo, useState } from 'preact/hooks';
import type { ContentType } from '../../api/types.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { formKeys, sameValue, valueAt, valuesOf, withValue, type FormKey, type FormValues } from './entry-form.ts';
import type { OtherVersion } from './use-entry-editor.ts';

export interface ConflictDialogProps {
  type: ContentType;
  /** What the editor loaded before editing. */
  base: FormValues;
  /** What the editor has now. */
  mine: FormValues;
  other: OtherVersion;
  /** Called with the merged values when the editor has chosen; the screen saves them. */
  onMerge: (merged: FormValues) => void;
  onClose: () => void;
}

/** The side-by-side comparison with a choice per field. */
export function ConflictDialog({ type, base, mine, other, onMerge, onClose }: ConflictDialogProps) {
  const theirs = useMemo(() => valuesOf(other.entry), [other]);
  const differing = formKeys(type).filter((key) => !sameValue(valueAt(mine, key), valueAt(theirs, key)));
  const [choice, setChoice] = useState<Record<FormKey, 'mine' | 'theirs'>>(() =>
    Object.fromEntries(differing.map((key) => [key, sameValue(valueAt(base, key), valueAt(mine, key)) ? 'theirs' : 'mine'])),
  );
  const merge = () => onMerge(differing.reduce((merged, key) => withValue(merged, key, valueAt(choice[key] === 'mine' ? mine : theirs, key)), theirs));
  const intro =
    other.noticed === 'save'
      ? 'Someone else saved this entry while you were editing it, so your changes were not saved yet.'
      : 'Someone else just saved this entry while you have unsaved changes.';
  return (
    <Dialog
      open
      wide
      title="Someone else changed this"
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose}>Keep editing</Button>
          <Button variant="primary" onClick={merge}>
            Save with these choices
          </Button>
        </>
      }
    >
      <p>{intro} Choose, field by field, which version to keep.</p>
      {differing.length === 0 ? (
        <p>Their changes are the same as yours.</p>
      ) : (
        <table class="table conflict">
          <caption class="visually-hidden">Fields that differ</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Theirs</th>
              <th scope="col">Yours</th>
            </tr>
          </thead>
          <tbody>
            {differing.map((key) => (
              <tr key={key}>
                <th scope="row">{labelOf(type, key)}</th>
                {(['theirs', 'mine'] as const).map((side) => (
                  <td key={side}>
                    <label class="conflict__choice">
                      <input type="radio" name={`conflict-${key}`} checked={choice[key] === side} onChange={() => setChoice({ ...choice, [key]: side })} />
                      <span class="visually-hidden">{`Keep ${side === 'mine' ? 'yours' : 'theirs'} for ${labelOf(type, key)}`}</span>
                      <span class="conflict__value">{preview(valueAt(side === 'mine' ? mine : theirs, key))}</span>
                    </label>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Dialog>
  );
}

const OWN_LABELS: Record<string, string> = { title: 'Title', slug: 'Slug', status: 'Status', published_at: 'Publish date' };

function labelOf(type: ContentType, key: FormKey): string {
  if (!key.startsWith('data.')) return OWN_LABELS[key] ?? key;
  const name = key.slice(5);
  return type.fields[name]?.label || name;
}

const PREVIEW_LENGTH = 240;

function preview(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(empty)';
  const text = typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : JSON.stringify(value);
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
}
