// The entry's own fields in the type's order: the title first, then each
// custom field with the input of its type and the API's message next to it.
import type { ContentType } from '../../api/types.ts';
import { TextField } from '../../ui/field.tsx';
import type { FormValues } from './entry-form.ts';
import { inputFor } from './inputs/registry.ts';

export interface EntryFieldsProps {
  type: ContentType;
  values: FormValues;
  /** Updates the form from its latest values (inputs may report after other changes). */
  update: (change: (current: FormValues) => FormValues) => void;
  errors: Record<string, string>;
}

/** The main column of the editor. */
export function EntryFields({ type, values, update, errors }: EntryFieldsProps) {
  return (
    <div class="entry-fields">
      <TextField label="Title" required value={values.title} onValue={(title) => update((current) => ({ ...current, title }))} error={errors.title} />
      {Object.entries(type.fields).map(([name, def]) => {
        const Input = inputFor(def.type);
        return (
          <Input
            key={name}
            name={name}
            def={def}
            label={def.label || name}
            value={values.data[name]}
            onValue={(value) => update((current) => ({ ...current, data: { ...current.data, [name]: value } }))}
            error={errors[name]}
            type={type}
            values={values.data}
            title={values.title}
          />
        );
      })}
    </div>
  );
}
