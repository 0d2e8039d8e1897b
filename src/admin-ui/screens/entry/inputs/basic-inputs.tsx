// The plain inputs: text, long text, number, range, colour, date and date with
// time. Dates are shown and typed in the browser's time zone; datetimes are
// stored as ISO 8601 in UTC, dates as YYYY-MM-DD (API.md).
import { Field } from '../../../ui/field.tsx';
import { textOf, type FieldInputProps } from './field-input.ts';

/** One line of text. */
export function TextInput({ label, def, value, onValue, error }: FieldInputProps) {
  return (
    <Field label={label} error={error} required={def.required}>
      {(control) => <input {...control} type="text" class="input" value={textOf(value)} onInput={(event) => onValue(event.currentTarget.value)} />}
    </Field>
  );
}

/** Several lines of plain text. */
export function TextareaInput({ label, def, value, onValue, error }: FieldInputProps) {
  return (
    <Field label={label} error={error} required={def.required}>
      {(control) => <textarea {...control} class="input" rows={4} value={textOf(value)} onInput={(event) => onValue(event.currentTarget.value)} />}
    </Field>
  );
}

/** A number; an empty box is no value. */
export function NumberInput({ label, def, value, onValue, error }: FieldInputProps) {
  return (
    <Field label={label} error={error} required={def.required}>
      {(control) => (
        <input
          {...control}
          type="number"
          class="input"
          step="any"
          value={typeof value === 'number' ? String(value) : ''}
          onInput={(event) => onValue(numberOrUndefined(event.currentTarget.value))}
        />
      )}
    </Field>
  );
}

/** A slider between the field's min and max, with the number shown. */
export function RangeInput({ label, def, value, onValue, error }: FieldInputProps) {
  const min = typeof def.min === 'number' ? def.min : 0;
  const max = typeof def.max === 'number' ? def.max : 100;
  const step = typeof def.step === 'number' ? def.step : 1;
  const current = typeof value === 'number' ? value : undefined;
  return (
    <Field label={label} error={error} required={def.required} hint={`From ${min} to ${max}.`}>
      {(control) => (
        <div class="range-input">
          <input {...control} type="range" min={min} max={max} step={step} value={current ?? min} onInput={(event) => onValue(Number(event.currentTarget.value))} />
          <output for={control.id}>{current ?? 'not set'}</output>
        </div>
      )}
    </Field>
  );
}

/** A colour, with the picker and its hex code. */
export function ColorInput({ label, def, value, onValue, error }: FieldInputProps) {
  const hex = textOf(value);
  return (
    <Field label={label} error={error} required={def.required}>
      {(control) => (
        <div class="color-input">
          <input {...control} type="color" value={/^#[0-9a-f]{6}$/i.test(hex) ? hex : '#000000'} onInput={(event) => onValue(event.currentTarget.value)} />
          <code>{hex || 'not set'}</code>
        </div>
      )}
    </Field>
  );
}

/** A calendar date (YYYY-MM-DD). */
export function DateInput({ label, def, value, onValue, error }: FieldInputProps) {
  return (
    <Field label={label} error={error} required={def.required}>
      {(control) => <input {...control} type="date" class="input" value={textOf(value).slice(0, 10)} onInput={(event) => onValue(event.currentTarget.value || undefined)} />}
    </Field>
  );
}

/** A date and time in the browser's time zone, stored in UTC. */
export function DateTimeInput({ label, def, value, onValue, error }: FieldInputProps) {
  return (
    <Field label={label} error={error} required={def.required} hint={`Your time zone: ${Intl.DateTimeFormat().resolvedOptions().timeZone}.`}>
      {(control) => <input {...control} type="datetime-local" class="input" value={localDateTime(textOf(value))} onInput={(event) => onValue(isoOf(event.currentTarget.value))} />}
    </Field>
  );
}

/** An ISO date-time as the value of a datetime-local input, in the browser's time zone. */
export function localDateTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const local = new Date(time - new Date(time).getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A datetime-local value (browser time zone) as ISO 8601 in UTC; undefined when empty. */
export function isoOf(local: string): string | undefined {
  if (!local) return undefined;
  const time = new Date(local).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function numberOrUndefined(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}
