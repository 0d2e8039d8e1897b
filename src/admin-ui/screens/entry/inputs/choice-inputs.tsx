// Choices: a yes/no switch, a select (one option from a list) and a
// multi-select (several options, as checkboxes).
import { useId } from 'preact/hooks';
import { optionsOf } from '../../../content/select-options.ts';
import { Field } from '../../../ui/field.tsx';
import { FieldGroup } from './field-group.tsx';
import type { FieldInputProps } from './field-input.ts';

/** On or off. */
export function BooleanInput({ label, value, onValue, error }: FieldInputProps) {
  const id = useId();
  return (
    <div class={error ? 'field field--invalid' : 'field'}>
      <label class="switch" for={id}>
        <input id={id} type="checkbox" role="switch" checked={value === true} onChange={(event) => onValue(event.currentTarget.checked)} aria-invalid={error ? true : undefined} />
        <span>{label}</span>
      </label>
      {error && <p class="field__error">{error}</p>}
    </div>
  );
}

/** One option (a dropdown) or several (checkboxes), by the field's `multiple`. */
export function SelectInput(props: FieldInputProps) {
  return props.def.multiple === true ? <MultiSelect {...props} /> : <SingleSelect {...props} />;
}

function SingleSelect({ label, def, value, onValue, error }: FieldInputProps) {
  return (
    <Field label={label} error={error} required={def.required}>
      {(control) => (
        <select {...control} class="input" value={typeof value === 'string' ? value : ''} onChange={(event) => onValue(event.currentTarget.value || null)}>
          <option value="">(none)</option>
          {optionsOf(def.options).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function MultiSelect({ label, def, value, onValue, error }: FieldInputProps) {
  const chosen = Array.isArray(value) ? (value as string[]) : [];
  const toggle = (option: string, on: boolean) => onValue(on ? [...chosen, option] : chosen.filter((item) => item !== option));
  return (
    <FieldGroup label={label} error={error} required={def.required}>
      <div class="checkbox-list">
        {optionsOf(def.options).map((option) => (
          <label key={option.value} class="checkbox">
            <input type="checkbox" checked={chosen.includes(option.value)} onChange={(event) => toggle(option.value, event.currentTarget.checked)} />
            {option.label}
          </label>
        ))}
      </div>
    </FieldGroup>
  );
}
