// JSON: edited as text, checked as you type; the form keeps the last text
// that parsed, and says where the text does not. A value replaced from
// elsewhere remounts the input (EntryFields is keyed), so the text follows.
import { useState } from 'preact/hooks';
import { Field } from '../../../ui/field.tsx';
import type { FieldInputProps } from './field-input.ts';

/** A JSON value in a text area. */
export function JsonInput({ label, def, value, onValue, error }: FieldInputProps) {
  const [text, setText] = useState(() => format(value));
  const [problem, setProblem] = useState<string>();
  const edit = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setProblem(undefined);
      onValue(undefined);
      return;
    }
    try {
      onValue(JSON.parse(next));
      setProblem(undefined);
    } catch (parseError) {
      setProblem(`Not valid JSON: ${(parseError as Error).message}`);
    }
  };
  return (
    <Field label={label} error={problem ?? error} required={def.required} hint="JSON, for example {&quot;key&quot;: 1}.">
      {(control) => <textarea {...control} class="input input--code" rows={6} spellcheck={false} value={text} onInput={(event) => edit(event.currentTarget.value)} />}
    </Field>
  );
}

function format(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}
