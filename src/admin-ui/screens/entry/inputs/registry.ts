// The input for each field type (API.md "Field definitions"). The editor
// draws a type's fields in order, each with the input registered here.
import type { ComponentType } from 'preact';
import { ColorInput, DateInput, DateTimeInput, NumberInput, RangeInput, TextareaInput, TextInput } from './basic-inputs.tsx';
import { BooleanInput, SelectInput } from './choice-inputs.tsx';
import type { FieldInputProps } from './field-input.ts';
import { HtmlInput } from './html-input.tsx';
import { JsonInput } from './json-input.tsx';
import { MarkdownInput } from './markdown-input.tsx';
import { MediaFieldInput } from './media-input.tsx';
import { RelationInput } from './relation-input.tsx';
import { SlugInput } from './slug-input.tsx';

/** Field type → its input; unknown types fall back to a text input. */
export const FIELD_INPUTS: Record<string, ComponentType<FieldInputProps>> = {
  text: TextInput,
  textarea: TextareaInput,
  markdown: MarkdownInput,
  html: HtmlInput,
  number: NumberInput,
  range: RangeInput,
  boolean: BooleanInput,
  select: SelectInput,
  date: DateInput,
  datetime: DateTimeInput,
  slug: SlugInput,
  json: JsonInput,
  color: ColorInput,
  media: MediaFieldInput,
  relation: RelationInput,
};

/** The input for a field type. */
export function inputFor(fieldType: string): ComponentType<FieldInputProps> {
  return FIELD_INPUTS[fieldType] ?? TextInput;
}
