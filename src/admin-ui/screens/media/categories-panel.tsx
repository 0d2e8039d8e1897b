// The library's nested categories ("Photos / Nature"): create one (under a
// parent), rename or move one (a name with "/" is a new full path), delete
// one with its subcategories (their files stay, without a category).
import { useState } from 'preact/hooks';
import { createCategory, deleteCategory, renameCategory } from '../../api/media.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { SelectField, TextField } from '../../ui/field.tsx';
import { categoryOptions } from './category-options.ts';
import { useAction } from '../../ui/status.tsx';

export function CategoriesPanel({ categories, onChanged }: { categories: string[]; onChanged: () => void }) {
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const [renaming, setRenaming] = useState<{ from: string; to: string }>();
  const [deleting, setDeleting] = useState<string>();
  const action = useAction({ progress: 'Saving the categories…', success: 'Categories saved.' });
  const run = async (task: () => Promise<unknown>) => {
    if ((await action.run(task)) !== undefined) onChanged();
  };
  return (
    <details class="panel categories-panel">
      <summary>Categories ({categories.length})</summary>
      <form
        class="categories-panel__new"
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => createCategory(name, parent || undefined)).then(() => setName(''));
        }}
      >
        <TextField label="New category" value={name} onValue={setName} error={action.fieldErrors.name} />
        <SelectField label="Inside" error={action.fieldErrors.parent} value={parent} options={categoryOptions(categories, 'At the top')} onValue={setParent} />
        <Button type="submit" busy={action.busy} disabled={name.trim() === ''}>
          Create
        </Button>
      </form>
      {categories.length === 0 ? (
        <p class="field__hint">No categories yet.</p>
      ) : (
        <ul class="categories-panel__list">
          {categories.map((category) => (
            <li key={category}>
              {renaming?.from === category ? (
                <form
                  class="categories-panel__rename"
                  onSubmit={(event) => {
                    event.preventDefault();
                    void run(() => renameCategory(category, renaming.to)).then(() => setRenaming(undefined));
                  }}
                >
                  <TextField label={`New name of ${category}`} hint="A name with “/” moves it, e.g. “Brand / Logos”." value={renaming.to} onValue={(to) => setRenaming({ from: category, to })} />
                  <Button type="submit" busy={action.busy}>
                    Save
                  </Button>
                  <Button variant="quiet" onClick={() => setRenaming(undefined)}>
                    Cancel
                  </Button>
                </form>
              ) : (
                <>
                  <span class="categories-panel__name">{category}</span>
                  <Button variant="quiet" onClick={() => setRenaming({ from: category, to: category })} aria-label={`Rename ${category}`}>
                    Rename
                  </Button>
                  <Button variant="quiet" onClick={() => setDeleting(category)} aria-label={`Delete ${category}`}>
                    Delete
                  </Button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog open={deleting !== undefined} title={`Delete the category ${deleting ?? ''}?`} confirmLabel="Delete the category" danger onConfirm={async () => (await deleteCategory(deleting ?? ''), onChanged())} onClose={() => setDeleting(undefined)}>
        The category and its subcategories are deleted. Their files stay in the library, without a category.
      </ConfirmDialog>
    </details>
  );
}
