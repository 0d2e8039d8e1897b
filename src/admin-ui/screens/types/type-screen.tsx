// The type builder, for a new type (`/admin/types/new`) and for a saved one
// (`/admin/types/:name`): name and label, single page or collection,
// visibility, languages, and the fields in order. Saving sends the whole
// definition; the API's 422 messages show next to their inputs.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { createContentType, getContentType, listContentTypes, updateContentType } from '../../api/content-types.ts';
import type { ContentType } from '../../api/types.ts';
import { slugify } from '../../content/slugify.ts';
import { Link, navigate } from '../../router/router.tsx';
import { useTitle } from '../../router/router-view.tsx';
import { pathTo, type ScreenProps } from '../../routes.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField, TextField } from '../../ui/field.tsx';
import { useAction } from '../../ui/status.tsx';
import { DeleteTypeButton } from './delete-type-button.tsx';
import { FieldRow } from './field-row.tsx';
import { bodyOf, draftOf, emptyDraft, KIND_OPTIONS, localesOf, newField, type FieldDraft, type TypeDraft } from './type-draft.ts';
import './types-screen.css';

const VISIBILITIES: [string, string][] = [
  ['public', 'Everyone (published entries)'],
  ['private', 'Only API tokens allowed to read it'],
];

/** The builder; `params.name` is absent for a new type. */
export function TypeScreen({ params }: ScreenProps) {
  const [saved, setSaved] = useState<ContentType | null>();
  const [types, setTypes] = useState<ContentType[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const failed = (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The content type could not be loaded.');
    listContentTypes().then(setTypes, failed);
    if (params.name) getContentType(params.name).then(setSaved, failed);
    else setSaved(null);
  }, [params.name]);
  useTitle(saved ? `Edit ${saved.label || saved.name}` : 'New content type');
  if (error) return <p class="screen form-error" role="alert">{error}</p>;
  if (saved === undefined || !types) return <p class="loading">Loading…</p>;
  return <TypeForm key={saved?.name ?? 'new'} saved={saved ?? undefined} types={types} />;
}

function TypeForm({ saved, types }: { saved: ContentType | undefined; types: ContentType[] }) {
  const [draft, setDraft] = useState<TypeDraft>(() => (saved ? draftOf(saved) : emptyDraft()));
  const [newKind, setNewKind] = useState('text');
  const save = useAction({ progress: 'Saving the content type…', success: 'Content type saved.' });
  const errors = save.fieldErrors;
  const isNew = saved === undefined;
  const locales = localesOf(draft);
  const set = (change: Partial<TypeDraft>) => setDraft((current) => ({ ...current, ...change }));
  const setLabel = (label: string) => set(isNew && (draft.name === '' || draft.name === slugify(draft.label)) ? { label, name: slugify(label) } : { label });
  const setField = (key: string, field: FieldDraft) => set({ fields: draft.fields.map((candidate) => (candidate.key === key ? field : candidate)) });
  const moveField = (position: number, step: -1 | 1) => {
    const fields = [...draft.fields];
    [fields[position], fields[position + step]] = [fields[position + step], fields[position]];
    set({ fields });
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = bodyOf(draft, isNew);
    const stored = await save.run(() => (isNew ? createContentType(body) : updateContentType(draft.name, body)));
    if (!stored) return;
    if (isNew) {
      const edit = pathTo('type', { name: stored.name });
      if (edit) navigate(edit, { replace: true });
    } else {
      setDraft(draftOf(stored));
    }
  };
  const list = pathTo('types');
  const entries = saved && pathTo('entries', { type: saved.name });

  return (
    <form class="screen type-builder" onSubmit={submit} noValidate>
      <header class="type-builder__header">
        <h1>{isNew ? 'New content type' : `Edit ${saved.label || saved.name}`}</h1>
        {list && <Link href={list}>All content types</Link>}
        {entries && <Link href={entries}>{saved.singleton ? 'Open the page' : 'Open the entries'}</Link>}
      </header>
      {save.error && !Object.keys(errors).length && (
        <p class="form-error" role="alert">
          {save.error.message}
        </p>
      )}
      <section class="panel" aria-labelledby="type-basics">
        <h2 id="type-basics">Basics</h2>
        <TextField label="Label" hint="What editors see, e.g. “Blog posts”." value={draft.label} onValue={setLabel} error={errors.label} required />
        <TextField
          label="Name"
          hint={isNew ? 'Used in the API and the folder name: lowercase letters, digits and hyphens. It cannot be changed later.' : 'The name cannot be changed.'}
          value={draft.name}
          onValue={(name) => set({ name })}
          disabled={!isNew}
          error={errors.name}
          required
        />
        <label class="check">
          <input type="checkbox" checked={draft.singleton} onChange={(event) => set({ singleton: event.currentTarget.checked })} /> Single page (one entry, such as “About us”), not a collection
        </label>
        {errors.singleton && <p class="field__error">{errors.singleton}</p>}
        <SelectField label="Who can read it through the public API" error={errors.visibility} value={draft.visibility} options={VISIBILITIES} onValue={(visibility) => set({ visibility: visibility as TypeDraft['visibility'] })} />
      </section>
      <section class="panel" aria-labelledby="type-languages">
        <h2 id="type-languages">Languages</h2>
        <TextField label="Language codes" hint="Codes separated by commas, e.g. “en, de”. Empty for content in one language." value={draft.localesText} onValue={(localesText) => set({ localesText })} error={errors.locales} />
        {locales.length > 0 && (
          <SelectField label="Default language" error={errors.default_locale} value={draft.defaultLocale || locales[0]} options={locales.map((code): [string, string] => [code, code])} onValue={(defaultLocale) => set({ defaultLocale })} />
        )}
      </section>
      <section class="type-builder__fields" aria-labelledby="type-fields">
        <h2 id="type-fields">Fields</h2>
        <p class="field__hint">Every entry has a title, a URL key and a status; add the fields it needs beyond those.</p>
        {errors.fields && <p class="field__error">{errors.fields}</p>}
        {draft.fields.map((field, position) => (
          <FieldRow
            key={field.key}
            field={field}
            position={position}
            count={draft.fields.length}
            siblings={draft.fields}
            types={types}
            errors={errors}
            onChange={(next) => setField(field.key, next)}
            onMove={(step) => moveField(position, step)}
            onRemove={() => set({ fields: draft.fields.filter((candidate) => candidate.key !== field.key) })}
          />
        ))}
        <div class="type-builder__add">
          <SelectField label="Kind of the new field" value={newKind} options={KIND_OPTIONS} onValue={setNewKind} />
          <Button onClick={() => set({ fields: [...draft.fields, newField(newKind)] })}>Add a field</Button>
        </div>
      </section>
      <div class="panel__actions type-builder__actions">
        <Button type="submit" variant="primary" busy={save.busy}>
          {isNew ? 'Create the content type' : 'Save changes'}
        </Button>
        {saved && <DeleteTypeButton type={saved} />}
      </div>
    </form>
  );
}
