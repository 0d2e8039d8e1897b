// A link to other entries: the chosen ones by title (with a remove button)
// and a search of the target collection to add more. Single relations hold
// one id, multiple ones a list (API.md: relation values are entry ids).
import { useEffect, useState } from 'preact/hooks';
import { listEntries } from '../../../api/entries.ts';
import type { Entry } from '../../../api/types.ts';
import { Button } from '../../../ui/button.tsx';
import { useDebounced } from '../../../ui/use-debounced.ts';
import { FieldGroup } from './field-group.tsx';
import type { FieldInputProps } from './field-input.ts';

const RESULTS = 8;

/** Pick one or several entries of the field's target type. */
export function RelationInput({ label, def, value, onValue, error }: FieldInputProps) {
  const target = typeof def.target === 'string' ? def.target : '';
  const isMultiple = def.multiple === true;
  const ids = Array.isArray(value) ? (value as string[]) : typeof value === 'string' && value ? [value] : [];
  const titles = useTitles(target, ids);
  const choose = (entry: Entry) => onValue(isMultiple ? [...ids.filter((id) => id !== entry.id), entry.id] : entry.id);
  const remove = (id: string) => onValue(isMultiple ? ids.filter((other) => other !== id) : null);
  return (
    <FieldGroup label={label} error={error} required={def.required}>
      {ids.length > 0 ? (
        <ul class="picked-list" aria-label={`Chosen for ${label}`}>
          {ids.map((id) => (
            <li key={id} class="picked-list__item">
              <span>{titles.get(id) ?? id}</span>
              <Button variant="quiet" aria-label={`Remove ${titles.get(id) ?? id}`} onClick={() => remove(id)}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="field__hint">Nothing chosen yet.</p>
      )}
      <RelationSearch target={target} label={label} exclude={ids} onChoose={choose} />
    </FieldGroup>
  );
}

function RelationSearch({ target, label, exclude, onChoose }: { target: string; label: string; exclude: string[]; onChoose: (entry: Entry) => void }) {
  const [text, setText] = useState('');
  const q = useDebounced(text, 250);
  const [results, setResults] = useState<Entry[]>([]);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    if (!target) return;
    const controller = new AbortController();
    listEntries(target, { limit: RESULTS, offset: 0, q, sort: q ? undefined : 'updated_at', order: q ? undefined : 'desc' }, controller.signal).then(
      ({ entries }) => {
        setResults(entries);
        setProblem(undefined);
      },
      () => !controller.signal.aborted && setProblem(`The entries of "${target}" could not be searched.`),
    );
    return () => controller.abort();
  }, [target, q]);
  const shown = results.filter((entry) => !exclude.includes(entry.id));
  return (
    <div class="relation-search">
      <label>
        <span class="visually-hidden">Search {target} to add to {label}</span>
        <input type="search" class="input" placeholder={`Search ${target}…`} value={text} onInput={(event) => setText(event.currentTarget.value)} />
      </label>
      {problem && <p class="field__error">{problem}</p>}
      <ul class="relation-search__results" aria-label={`Matching ${target}`}>
        {shown.map((entry) => (
          <li key={entry.id}>
            <Button variant="quiet" onClick={() => onChoose(entry)}>
              Add “{entry.title || entry.slug}”
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

// The titles of the chosen entries, loaded in one request.
function useTitles(target: string, ids: string[]): Map<string, string> {
  const [titles, setTitles] = useState(new Map<string, string>());
  const missing = ids.filter((id) => !titles.has(id));
  useEffect(() => {
    if (!target || missing.length === 0) return;
    listEntries(target, { limit: missing.length, offset: 0, filters: { id: missing } }).then(
      ({ entries }) => setTitles((known) => new Map([...known, ...entries.map((entry): [string, string] => [entry.id, entry.title || entry.slug])])),
      () => undefined,
    );
  }, [target, missing.join(',')]);
  return titles;
}
