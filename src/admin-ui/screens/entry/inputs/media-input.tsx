// A media field shows the chosen files by name. Choosing files from the media
// library belongs to the library's picker (screens/media), which replaces this
// input in registry.ts once it exists.
import { FieldGroup } from './field-group.tsx';
import type { FieldInputProps } from './field-input.ts';

/** The chosen file names, read-only. */
export function MediaFilesInput({ label, def, value, error }: FieldInputProps) {
  const files = Array.isArray(value) ? (value as string[]) : typeof value === 'string' && value ? [value] : [];
  return (
    <FieldGroup label={label} error={error} required={def.required}>
      {files.length > 0 ? (
        <ul class="picked-list">
          {files.map((file) => (
            <li key={file} class="picked-list__item">
              {file}
            </li>
          ))}
        </ul>
      ) : (
        <p class="field__hint">No file chosen.</p>
      )}
    </FieldGroup>
  );
}
