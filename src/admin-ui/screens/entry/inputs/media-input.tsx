// A media field: the chosen files with their thumbnails, a button that opens
// the media library as a picker (where files can also be uploaded), and for
// each file buttons to move it (fields with several) and to remove it. The
// picker is its own chunk, loaded on first use.
import type { ComponentType } from 'preact';
import { useState } from 'preact/hooks';
import type { MediaPickerProps } from '../../media/media-picker.tsx';
import { useSignedIn } from '../../../session/session.tsx';
import { Button } from '../../../ui/button.tsx';
import { FieldGroup } from './field-group.tsx';
import type { FieldInputProps } from './field-input.ts';

const RASTER = /\.(png|jpe?g|gif|webp|avif)$/i;

export function MediaFieldInput({ label, def, value, onValue, error }: FieldInputProps) {
  const { workspace } = useSignedIn();
  const [Picker, setPicker] = useState<ComponentType<MediaPickerProps>>();
  const multiple = def.multiple === true;
  const files = Array.isArray(value) ? (value as string[]) : typeof value === 'string' && value ? [value] : [];
  const openPicker = () => void import('../../media/media-picker.tsx').then((module) => setPicker(() => module.MediaPicker));
  const move = (from: number, to: number) => {
    const next = [...files];
    [next[from], next[to]] = [next[to], next[from]];
    onValue(next);
  };
  return (
    <FieldGroup label={label} error={error} required={def.required}>
      {files.length > 0 ? (
        <ul class="picked-list">
          {files.map((file, position) => (
            <li key={file} class="picked-list__item picked-media">
              {RASTER.test(file) && <img class="thumb thumb--small" src={`/media-thumbs/${encodeURIComponent(workspace)}/${encodeURIComponent(file)}`} alt="" width={40} height={40} />}
              <span class="picked-media__name">{file}</span>
              {multiple && (
                <>
                  <Button variant="quiet" disabled={position === 0} onClick={() => move(position, position - 1)} aria-label={`Move ${file} up`}>
                    ↑
                  </Button>
                  <Button variant="quiet" disabled={position === files.length - 1} onClick={() => move(position, position + 1)} aria-label={`Move ${file} down`}>
                    ↓
                  </Button>
                </>
              )}
              <Button variant="quiet" onClick={() => onValue(files.filter((name) => name !== file))} aria-label={`Remove ${file}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="field__hint">No file chosen.</p>
      )}
      <Button onClick={openPicker}>{files.length > 0 && !multiple ? 'Choose another file' : multiple ? 'Add files' : 'Choose a file'}</Button>
      {Picker && (
        <Picker
          title={`Choose ${multiple ? 'files' : 'a file'} for ${label}`}
          multiple={multiple}
          onPick={(picked) => {
            onValue(multiple ? [...files, ...picked.filter((name) => !files.includes(name))] : picked.slice(0, 1));
            setPicker(undefined);
          }}
          onClose={() => setPicker(undefined)}
        />
      )}
    </FieldGroup>
  );
}
