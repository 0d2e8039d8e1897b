// A slug field: while it is empty it follows its source field (the title
// unless the field names another); once it has a value of its own (typed, or
// saved earlier) it stays put, so a saved address never changes by itself.
import { useEffect, useState } from 'preact/hooks';
import { slugify } from '../../../content/slugify.ts';
import { Button } from '../../../ui/button.tsx';
import { Field } from '../../../ui/field.tsx';
import { textOf, type FieldInputProps } from './field-input.ts';

/** A URL-safe key, generated from its source and editable. */
export function SlugInput({ label, def, value, onValue, error, values, title }: FieldInputProps) {
  const source = typeof def.source === 'string' && def.source !== 'title' ? textOf(values[def.source]) : title;
  const generated = slugify(source);
  const [isTyped, setTyped] = useState(() => textOf(value) !== '');
  useEffect(() => {
    if (!isTyped && textOf(value) !== generated) onValue(generated || undefined);
  }, [generated, isTyped]);
  return (
    <Field label={label} error={error} required={def.required} hint={isTyped ? undefined : 'Made from the title as you type.'}>
      {(control) => (
        <div class="slug-input">
          <input
            {...control}
            type="text"
            class="input"
            value={textOf(value)}
            onInput={(event) => {
              setTyped(true);
              onValue(event.currentTarget.value);
            }}
          />
          {isTyped && (
            <Button variant="quiet" onClick={() => { setTyped(false); onValue(generated); }}>
              Make from title again
            </Button>
          )}
        </div>
      )}
    </Field>
  );
}
