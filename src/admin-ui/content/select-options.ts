// A select field's options as the type stores them: strings, or
// `{ value, label }` pairs (API.md "Field definitions").

/** One option to show: the stored value and its label. */
export interface SelectOption {
  value: string;
  label: string;
}

/** The options of a select field definition, as value/label pairs. */
export function optionsOf(options: unknown): SelectOption[] {
  if (!Array.isArray(options)) return [];
  return options.map((option) => {
    if (typeof option === 'string') return { value: option, label: option };
    const pair = option as { value: string; label?: string };
    return { value: pair.value, label: pair.label || pair.value };
  });
}
