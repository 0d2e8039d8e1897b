// One field of the type builder: its label and name, kind, required/unique,
// default and the options of its kind, with buttons to move it up or down
// (the keyboard's way to reorder) and to remove it. The API's messages for
// `fields.<name>.<property>` show next to the input they are about.
import type { ContentType } from '../../api/types.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField, TextField } from '../../ui/field.tsx';
import { FieldKindOptions } from './field-kind-options.tsx';
import { FIELD_KINDS, fieldNameFrom, KIND_OPTIONS, type FieldDraft } from './type-draft.ts';

export interface FieldRowProps {
  field: FieldDraft;
  position: number;
  count: number;
  /** Every field of the draft (a slug's source is one of them). */
  siblings: FieldDraft[];
  types: ContentType[];
  errors: Record<string, string>;
  onChange: (field: FieldDraft) => void;
  onMove: (step: -1 | 1) => void;
  onRemove: () => void;
}

export function FieldRow({ field, position, count, siblings, types, errors, onChange, onMove, onRemove }: FieldRowProps) {
  const title = field.label || field.name || 'New field';
  const errorOf = (prop?: string) => errors[prop ? `fields.${field.name}.${prop}` : `fields.${field.name}`];
  const setLabel = (label: string) => {
    // A new field's name follows its label until the name is typed by hand.
    const followsLabel = !field.isSaved && (field.name === '' || field.name === fieldNameFrom(field.label));
    onChange({ ...field, label, name: followsLabel ? fieldNameFrom(label) : field.name });
  };
  return (
    <fieldset class="field-row">
      <legend>
        {title} <span class="field-row__kind">{FIELD_KINDS.find((kind) => kind.type === field.type)?.label ?? field.type}</span>
      </legend>
      <div class="field-row__tools">
        <Button variant="quiet" onClick={() => onMove(-1)} disabled={position === 0} aria-label={`Move ${title} up`}>
          ↑
        </Button>
        <Button variant="quiet" onClick={() => onMove(1)} disabled={position === count - 1} aria-label={`Move ${title} down`}>
          ↓
        </Button>
        <Button variant="quiet" onClick={onRemove} aria-label={`Remove ${title}`}>
          Remove
        </Button>
      </div>
      {errorOf() && (
        <p class="field__error" role="alert">
          {errorOf()}
        </p>
      )}
      <div class="field-row__grid">
        <TextField label="Label" value={field.label} onValue={setLabel} error={errorOf('label')} />
        <TextField
          label="Name"
          hint={field.isSaved ? 'Saved fields keep their name.' : 'Used in the API and in files.'}
          value={field.name}
          onValue={(name) => onChange({ ...field, name })}
          disabled={field.isSaved}
          required
        />
        <SelectField label="Kind" error={errorOf('type')} value={field.type} options={KIND_OPTIONS} disabled={field.isSaved} onValue={(type) => onChange({ ...field, type })} />
        <TextField label="Default" hint={defaultHint(field)} value={field.defaultText} onValue={(defaultText) => onChange({ ...field, defaultText })} error={errorOf('default')} />
      </div>
      <div class="field-row__checks">
        <label class="check">
          <input type="checkbox" checked={field.required} onChange={(event) => onChange({ ...field, required: event.currentTarget.checked })} /> Required
        </label>
        {!['json', 'media', 'boolean'].includes(field.type) && (
          <label class="check">
            <input type="checkbox" checked={field.unique} onChange={(event) => onChange({ ...field, unique: event.currentTarget.checked })} /> Unique
          </label>
        )}
      </div>
      {errorOf('unique') && <p class="field__error">{errorOf('unique')}</p>}
      <FieldKindOptions field={field} siblings={siblings} types={types} errorOf={errorOf} onChange={onChange} />
    </fieldset>
  );
}

function defaultHint(field: FieldDraft): string {
  if (field.type === 'boolean') return 'true or false; empty for none.';
  if (field.type === 'select' && field.multiple) return 'Option values separated by commas.';
  if (field.type === 'json') return 'A JSON value.';
  return 'Empty for none.';
}
