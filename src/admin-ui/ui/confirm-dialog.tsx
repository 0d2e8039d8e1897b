// "Are you sure?" that says exactly what will happen ("Delete 12 entries"),
// runs the action with progress on its button, and shows the API's message
// in place when it fails.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client.ts';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What will happen, in plain words; say when it can be undone (trash). */
  children: ComponentChildren;
  /** The confirming button's text, naming the action: "Delete 12 entries". */
  confirmLabel: string;
  /** Red confirm button for destructive actions. */
  danger?: boolean;
  /** The action; the dialog closes when it resolves and stays open with the message when it throws. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}

/** A confirmation dialog around one action. */
export function ConfirmDialog({ open, title, children, confirmLabel, danger, onConfirm, onClose }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string>();
  const close = () => {
    if (busy) return;
    setMessage(undefined);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setMessage(undefined);
    try {
      await onConfirm();
      setBusy(false);
      onClose();
    } catch (error) {
      setBusy(false);
      setMessage(error instanceof ApiError ? error.message : 'Something went wrong. Try again.');
    }
  };
  return (
    <Dialog
      open={open}
      title={title}
      onClose={close}
      actions={
        <>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} busy={busy} onClick={confirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {message && (
        <p class="dialog__error" role="alert">
          {message}
        </p>
      )}
    </Dialog>
  );
}
