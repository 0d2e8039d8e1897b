// Above the list: the search box (filters as you type; `/` jumps to it), the
// status chips and one filter per select field.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ContentType } from '../../api/types.ts';
import { STATUS_LABELS, STATUSES } from '../../content/entry-status.ts';
import { setQuery } from '../../router/router.tsx';
import { useDebounced } from '../../ui/use-debounced.ts';
import { selectFilters, selectParam, type ListState } from './list-state.ts';
import { useSlashFocus } from '../../ui/use-slash-focus.ts';

const SEARCH_DELAY_MS = 250;

/** Search, status chips and select filters for one list. */
export function ListToolbar({ type, state }: { type: ContentType; state: ListState }) {
  return (
    <div class="list-toolbar">
      <SearchBox value={state.q} />
      <StatusChips current={state.status} />
      {selectFilters(type).map((filter) => (
        <label key={filter.field} class="list-toolbar__select">
          <span>{filter.label}</span>
          <select class="input" value={state.selects[filter.field] ?? ''} onChange={(event) => setQuery({ [selectParam(filter.field)]: event.currentTarget.value, offset: undefined })}>
            <option value="">Any</option>
            {filter.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  );
}

function SearchBox({ value }: { value: string }) {
  const [text, setText] = useState(value);
  const settled = useDebounced(text, SEARCH_DELAY_MS);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (settled !== value) setQuery({ q: settled, offset: undefined }, { replace: true });
  }, [settled]);
  useEffect(() => setText(value), [value]);
  useSlashFocus(input);
  return (
    <label class="list-toolbar__search">
      <span class="visually-hidden">Search entries</span>
      <input ref={input} type="search" class="input" placeholder="Search (press /)" value={text} onInput={(event) => setText(event.currentTarget.value)} />
    </label>
  );
}

function StatusChips({ current }: { current: string | undefined }) {
  const choices: [string | undefined, string][] = [[undefined, 'All'], ...STATUSES.map((status): [string, string] => [status, STATUS_LABELS[status]])];
  return (
    <div class="chips" role="group" aria-label="Status">
      {choices.map(([status, label]) => (
        <button key={label} type="button" class="chip" aria-pressed={current === status} onClick={() => setQuery({ status, offset: undefined })}>
          {label}
        </button>
      ))}
    </div>
  );
}
