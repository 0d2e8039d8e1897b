// Deleting a content type, after a confirmation that says how many entries
// go with it (counted when the dialog opens).
import { useState } from 'preact/hooks';
import { deleteContentType } from '../../api/content-types.ts';
import { listEntries } from '../../api/entries.ts';
import type { ContentType } from '../../api/types.ts';
import { navigate } from '../../router/router.tsx';
import { pathTo } from '../../routes.ts';
import { useSignedIn } from '../../session/session.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useStatus } from '../../ui/status.tsx';

export function DeleteTypeButton({ type }: { type: ContentType }) {
  const { can } = useSignedIn();
  const status = useStatus();
  const [isOpen, setOpen] = useState(false);
  const [count, setCount] = useState<number>();
  if (!can('schema.delete')) return null;
  const label = type.label || type.name;
  const open = () => {
    setOpen(true);
    setCount(undefined);
    if (type.singleton) return setCount(1);
    listEntries(type.name, { limit: 1, offset: 0 }).then(({ meta }) => setCount(meta.total), () => setCount(undefined));
  };
  const remove = async () => {
    await deleteContentType(type.name);
    status.show('success', `Deleted ${label}.`);
    const list = pathTo('types');
    if (list) navigate(list, { replace: true });
  };
  const entries = count === undefined ? 'its entries' : count === 1 ? (type.singleton ? 'its page' : '1 entry') : `${count} entries`;
  return (
    <>
      <Button variant="danger" onClick={open}>
        Delete this content type
      </Button>
      <ConfirmDialog open={isOpen} title={`Delete ${label}?`} confirmLabel={count === undefined ? `Delete ${label}` : `Delete ${label} and ${entries}`} danger onConfirm={remove} onClose={() => setOpen(false)}>
        {label} is deleted with {entries} and everything in its trash. Earlier versions stay in the history, but nothing can be restored from the trash.
      </ConfirmDialog>
    </>
  );
}
