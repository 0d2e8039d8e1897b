// Search and filters of the library (kept in the address) and the choice
// between grid and list.
import { useEffect, useRef, useState } from 'preact/hooks';
import { MEDIA_KINDS } from '../../api/media.ts';
import { Field, SelectField } from '../../ui/field.tsx';
import { useDebounced } from '../../ui/use-debounced.ts';
import { useSlashFocus } from '../../ui/use-slash-focus.ts';
import { categoryOptions } from './category-options.ts';

export interface MediaFilters {
  q: string;
  kind: string;
  category: string;
  visibility: string;
  view: 'grid' | 'list';
}

const KIND_LABELS: Record<string, string> = { image: 'Images', video: 'Videos', audio: 'Audio', pdf: 'PDF', office: 'Office documents', archive: 'Archives', text: 'Text' };

export function MediaToolbar({ filters, categories, onChange }: { filters: MediaFilters; categories: string[]; onChange: (change: Partial<MediaFilters>) => void }) {
  const [q, setQ] = useState(filters.q);
  const search = useRef<HTMLInputElement>(null);
  const debouncedQ = useDebounced(q, 250);
  useEffect(() => {
    if (debouncedQ !== filters.q) onChange({ q: debouncedQ });
  }, [debouncedQ]);
  useSlashFocus(search);
  return (
    <div class="list-toolbar media-toolbar">
      <div class="list-toolbar__search">
        <Field label="Search files (press /)">
          {(control) => <input {...control} ref={search} type="search" class="input" value={q} onInput={(event) => setQ(event.currentTarget.value)} />}
        </Field>
      </div>
      <SelectField label="Kind" value={filters.kind} options={[['', 'All kinds'], ...MEDIA_KINDS.map((kind): [string, string] => [kind, KIND_LABELS[kind]])]} onValue={(kind) => onChange({ kind })} />
      <SelectField label="Category" value={filters.category} options={categoryOptions(categories, 'All categories')} onValue={(category) => onChange({ category })} />
      <SelectField label="Visibility" value={filters.visibility} options={[['', 'Public and private'], ['public', 'Public'], ['private', 'Private']]} onValue={(visibility) => onChange({ visibility })} />
      <div class="view-switch" role="group" aria-label="View">
        <button type="button" class="button button--secondary" aria-pressed={filters.view === 'grid'} onClick={() => onChange({ view: 'grid' })}>
          Grid
        </button>
        <button type="button" class="button button--secondary" aria-pressed={filters.view === 'list'} onClick={() => onChange({ view: 'list' })}>
          List
        </button>
      </div>
    </div>
  );
}
