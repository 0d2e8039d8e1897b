// The library as a picker for a media field: search, upload, choose one file
// (or several, for a field that takes several) and hand the names back.
import { useState } from 'preact/hooks';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Pager } from '../../ui/pager.tsx';
import { Thumbnail } from './media-grid.tsx';
import { UploadZone } from './upload-zone.tsx';
import { useMediaPage } from './use-media-page.ts';
import './media-screen.css';

const PAGE_SIZE = 24;

export interface MediaPickerProps {
  title: string;
  multiple: boolean;
  /** Called with the chosen file names. */
  onPick: (filenames: string[]) => void;
  onClose: () => void;
}

export function MediaPicker({ title, multiple, onPick, onClose }: MediaPickerProps) {
  const [q, setQ] = useState('');
  const [offset, setOffset] = useState(0);
  const [chosen, setChosen] = useState<string[]>([]);
  const page = useMediaPage({ q: q || undefined, limit: PAGE_SIZE, offset });
  const toggle = (filename: string) => setChosen((current) => (current.includes(filename) ? current.filter((name) => name !== filename) : multiple ? [...current, filename] : [filename]));
  return (
    <Dialog
      open
      wide
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button variant="primary" disabled={chosen.length === 0} onClick={() => onPick(chosen)}>
            {chosen.length > 1 ? `Use ${chosen.length} files` : 'Use this file'}
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </>
      }
    >
      <UploadZone onUploaded={(item) => (page.reload(), toggle(item.filename))} />
      <label class="picker__search">
        <span>Search files</span>
        <input type="search" class="input" value={q} onInput={(event) => (setQ(event.currentTarget.value), setOffset(0))} />
      </label>
      {page.items?.length === 0 ? (
        <EmptyState title={q ? 'No files match' : 'No files yet'}>{q ? 'Try other words.' : 'Upload one above.'}</EmptyState>
      ) : (
        <ul class="media-grid media-grid--picker" aria-label="Files">
          {page.items?.map((item) => (
            <li key={item.filename} class={chosen.includes(item.filename) ? 'media-card media-card--selected' : 'media-card'}>
              <button type="button" class="media-card__open" aria-pressed={chosen.includes(item.filename)} onClick={() => toggle(item.filename)} aria-label={`Choose ${item.filename}`}>
                <Thumbnail item={item} />
              </button>
              <span class="media-card__name" title={item.filename}>
                {item.filename}
              </span>
            </li>
          ))}
        </ul>
      )}
      <Pager label="File pages" offset={offset} limit={PAGE_SIZE} total={page.total} onOffset={setOffset} />
    </Dialog>
  );
}
