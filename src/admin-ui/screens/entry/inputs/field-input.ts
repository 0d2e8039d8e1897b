// What every field input receives: the field, its value, where to send a new
// value and the API's message for it. Inputs are looked up by field type in
// registry.ts.
import type { ContentType, FieldDefinition } from '../../../api/types.ts';

/** The props of every field input. */
export interface FieldInputProps {
  /** The field's name in the type (`data.<name>` in the form). */
  name: string;
  def: FieldDefinition;
  /** The label to show: the field's label, else its name. */
  label: string;
  value: unknown;
  onValue: (value: unknown) => void;
  /** The API's 422 message for this field. */
  error?: string;
  /** The whole type, for inputs that look at other fields (slug source) or other types (relations). */
  type: ContentType;
  /** The other values of the form, for inputs derived from them (slug from its source). */
  values: Record<string, unknown>;
  /** The entry's title, the default source of a slug field. */
  title: string;
}

/** A field's text value, or '' when absent. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}
