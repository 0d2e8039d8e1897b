// A labelled group of controls (checkboxes, a list of picks): a fieldset
// whose legend is the field's label, with the API's message under it.
import type { ComponentChildren } from 'preact';

/** A fieldset with legend, required mark and error. */
export function FieldGroup({ label, error, required, children }: { label: string; error?: string; required?: boolean; children: ComponentChildren }) {
  return (
    <fieldset class={error ? 'field field-group field--invalid' : 'field field-group'}>
      <legend>
        {label}
        {required && <span class="field__required"> (required)</span>}
      </legend>
      {children}
      {error && (
        <p class="field__error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
