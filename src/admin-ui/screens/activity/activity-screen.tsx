// The activity log: who did what and when, newest first, filtered by kind,
// person, content type and dates (all in the address), paged.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { listContentTypes } from '../../api/content-types.ts';
import { listActivity, type ActivityRecord } from '../../api/operations.ts';
import type { ContentType } from '../../api/types.ts';
import { authorName, useAuthors } from '../../content/authors.ts';
import { formatDateTime } from '../../content/status-badge.tsx';
import { setQuery, useLocation } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { Button } from '../../ui/button.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { Field, SelectField } from '../../ui/field.tsx';
import { Pager } from '../../ui/pager.tsx';

const PAGE_SIZE = 50;
const KINDS: [string, string][] = [
  ['', 'Everything'],
  ['content', 'Entries'],
  ['schema', 'Content types'],
  ['media', 'Media'],
  ['auth', 'Sign-ins'],
  ['token', 'Refused tokens'],
  ['webhook', 'Webhooks'],
  ['git', 'Git'],
];

const NO_FILTERS = { type: undefined, actor: undefined, content_type: undefined, from: undefined, until: undefined, offset: undefined };

export function ActivityScreen() {
  const { query } = useLocation();
  const authors = useAuthors();
  const [types, setTypes] = useState<ContentType[]>([]);
  const [records, setRecords] = useState<ActivityRecord[]>();
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string>();
  const filters = { type: query.get('type') ?? '', actor: query.get('actor') ?? '', content_type: query.get('content_type') ?? '', from: query.get('from') ?? '', until: query.get('until') ?? '' };
  const offset = Number(query.get('offset') ?? 0) || 0;
  const key = JSON.stringify({ ...filters, offset });
  useEffect(() => {
    listContentTypes().then(setTypes, () => setTypes([]));
  }, []);
  useEffect(() => {
    // `until` is the day chosen, included: the API's bound is exclusive, so the next day.
    const until = filters.until ? new Date(Date.parse(filters.until) + 86_400_000).toISOString().slice(0, 10) : undefined;
    listActivity({ type: filters.type || undefined, actor: filters.actor || undefined, content_type: filters.content_type || undefined, from: filters.from || undefined, until, limit: PAGE_SIZE, offset }).then(
      ({ records: page, meta }) => (setRecords(page), setTotal(meta.total), setError(undefined)),
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The activity could not be loaded.'),
    );
  }, [key]);
  useTitle('Activity');
  const set = (name: string, value: string) => setQuery({ [name]: value || undefined, offset: undefined }, { replace: true });
  const date = (label: string, name: 'from' | 'until') => (
    <Field label={label}>{(control) => <input {...control} type="date" class="input" value={filters[name]} onChange={(event) => set(name, event.currentTarget.value)} />}</Field>
  );
  return (
    <div class="screen screen--wide">
      <h1>Activity</h1>
      <div class="list-toolbar filters">
        <SelectField label="What" value={filters.type} options={KINDS} onValue={(value) => set('type', value)} />
        <SelectField label="Who" value={filters.actor} options={[['', 'Anyone'], ...[...authors].map(([id, name]): [string, string] => [id, name])]} onValue={(value) => set('actor', value)} />
        <SelectField label="Content type" value={filters.content_type} options={[['', 'Any'], ...types.map((type): [string, string] => [type.name, type.label || type.name])]} onValue={(value) => set('content_type', value)} />
        {date('From', 'from')}
        {date('Until', 'until')}
      </div>
      {error && <p class="form-error" role="alert">{error}</p>}
      <p class="list-count" aria-live="polite">
        {records ? total > 0 && `${total.toLocaleString()} ${total === 1 ? 'record' : 'records'}` : 'Loading…'}
      </p>
      {records && total === 0 && <NoActivity filtered={Object.values(filters).some(Boolean)} onClear={() => setQuery(NO_FILTERS)} />}
      {records && records.length > 0 && (
        <DataTable
          caption="Activity"
          stackOnPhone
          rows={records}
          rowKey={(record) => record.id}
          columns={[
            { key: 'time', header: 'When', cell: (record) => formatDateTime(record.time) },
            { key: 'who', header: 'Who', cell: (record) => authorName(record.user_id ?? undefined, authors) ?? (record.user_id ? record.user_id : 'git or the server') },
            { key: 'what', header: 'What', cell: (record) => <span class={`activity-${record.level}`}>{record.message}</span> },
            { key: 'where', header: 'Workspace', cell: (record) => record.workspace ?? '—' },
          ]}
        />
      )}
      <Pager label="Activity pages" offset={offset} limit={PAGE_SIZE} total={total} onOffset={(next) => setQuery({ offset: next ? String(next) : undefined })} />
    </div>
  );
}

/** Why the log is empty: nothing recorded yet, or nothing the filters let through. */
function NoActivity({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  if (filtered) {
    return (
      <EmptyState title="No activity matches these filters" action={<Button onClick={onClear}>Clear the filters</Button>}>
        Try other dates or another person, or clear the filters to see everything.
      </EmptyState>
    );
  }
  return <EmptyState title="No activity yet">Saves, uploads, sign-ins and changes to content types show up here as they happen.</EmptyState>;
}
