// The settings only some kinds of field have: a choice's options, a
// relation's target, min/max/step of numbers, "several" for choices,
// relations and media, and the source of a URL key.
import type { ContentType } from '../../api/types.ts';
import { Field, SelectField, TextField } from '../../ui/field.tsx';
import type { FieldDraft } from './type-draft.ts';

export interface FieldKindOptionsProps {
  field: FieldDraft;
  siblings: FieldDraft[];
  types: ContentType[];
  errorOf: (prop: string) => string | undefined;
  onChange: (field: FieldDraft) => void;
}

export function FieldKindOptions({ field, siblings, types, errorOf, onChange }: FieldKindOptionsProps) {
  const allowsSeveral = field.type === 'select' || field.type === 'relation' || field.type === 'media';
  return (
    <div class="field-row__grid">
      {field.type === 'select' && (
        <Field label="Options" hint="One per line: a value, or “value | Label”." error={errorOf('options')} required>
          {(control) => <textarea {...control} class="input" rows={4} value={field.optionsText} onInput={(event) => onChange({ ...field, optionsText: event.currentTarget.value })} />}
        </Field>
      )}
      {field.type === 'relation' && (
        <SelectField label="Points to" error={errorOf('target')} required value={field.target} options={[['', 'Choose a content type'], ...types.map((type): [string, string] => [type.name, type.label || type.name])]} onValue={(target) => onChange({ ...field, target })} />
      )}
      {(field.type === 'number' || field.type === 'range') &&
        (['min', 'max', 'step'] as const).map((prop) => (
          <TextField key={prop} label={{ min: 'Smallest', max: 'Largest', step: 'Step' }[prop]} value={field[prop]} onValue={(value) => onChange({ ...field, [prop]: value })} error={errorOf(prop)} />
        ))}
      {field.type === 'slug' && (
        <SelectField
          label="Made from"
          error={errorOf('source')}
          value={field.source}
          options={[['', 'The title'], ...siblings.filter((sibling) => sibling !== field && sibling.name && (sibling.type === 'text' || sibling.type === 'textarea')).map((sibling): [string, string] => [sibling.name, sibling.label || sibling.name])]}
          onValue={(source) => onChange({ ...field, source })}
        />
      )}
      {allowsSeveral && (
        <label class="check">
          <input type="checkbox" checked={field.multiple} onChange={(event) => onChange({ ...field, multiple: event.currentTarget.checked })} /> Several values
        </label>
      )}
    </div>
  );
}
