// A form field: label, the control, an optional hint and the error message
// next to it (422 `fields` from the API). The control gets the ids that tie
// them together, so screen readers read label, hint and error with it.
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** The attributes a control needs to be tied to its label, hint and error. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  required?: boolean;
}

export interface FieldProps {
  label: string;
  /** The message to show under the control, e.g. `error.fields.email`. */
  error?: string;
  hint?: ComponentChildren;
  required?: boolean;
  /** Draws the control with the props it must spread. */
  children: (control: ControlProps) => ComponentChildren;
}

/** A labelled field around any control. */
export function Field({ label, error, hint, required, children }: FieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={error ? 'field field--invalid' : 'field'}>
      <label for={id}>
        {label}
        {required && <span class="field__required"> (required)</span>}
      </label>
      {hint && (
        <p id={`${id}-hint`} class="field__hint">
          {hint}
        </p>
      )}
      {children({ id, 'aria-describedby': described || undefined, 'aria-invalid': error ? true : undefined, required })}
      {error && (
        <p id={`${id}-error`} class="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The props of TextField. */
export interface TextFieldProps extends Omit<FieldProps, 'children'> {
  value: string;
  /** Receives the text on every keystroke. */
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'search' | 'url' | 'tel' | 'number';
  autoComplete?: string;
  placeholder?: string;
  disabled?: boolean;
}

/** A labelled text input. */
export function TextField({ label, error, hint, required, value, onValue, type = 'text', autoComplete, placeholder, disabled }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} required={required}>
      {(control) => (
        <input
          {...control}
          // Preact types each input type's attributes apart, and a union of types does not pick one.
          type={type as 'text'}
          class="input"
          autoComplete={autoComplete}
          placeholder={placeholder}
          disabled={disabled}
          value={value}
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** The props of SelectField: the choices as [value, label] pairs, in order. */
export interface SelectFieldProps extends Omit<FieldProps, 'children'> {
  value: string;
  options: readonly (readonly [string, string])[];
  onValue: (value: string) => void;
  disabled?: boolean;
}

/** A labelled select. */
export function SelectField({ label, error, hint, required, value, options, onValue, disabled }: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} required={required}>
      {(control) => (
        <select {...control} class="input" value={value} disabled={disabled} onChange={(event) => onValue(event.currentTarget.value)}>
          {options.map(([optionValue, optionLabel]) => (
            <option key={optionValue} value={optionValue}>
              {optionLabel}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
