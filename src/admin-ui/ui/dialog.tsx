// A modal dialog on the native <dialog>: the rest of the page is inert while
// it is open (focus stays inside), Esc closes it, and focus returns to
// whatever opened it.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

export interface DialogProps {
  open: boolean;
  title: string;
  /** Called on Esc, on the close button, and by the caller's own buttons. */
  onClose: () => void;
  children: ComponentChildren;
  /** Buttons along the bottom. */
  actions?: ComponentChildren;
  /** Room for a side-by-side comparison or a table. */
  wide?: boolean;
}

/** A modal dialog with a heading, content and actions. */
export function Dialog({ open, title, onClose, children, actions, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    dialog.showModal();
    return () => {
      dialog.close();
      opener?.focus();
    };
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      class={wide ? 'dialog dialog--wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Esc: let the caller decide, so its state stays the one truth.
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} class="dialog__title">
        {title}
      </h2>
      <div class="dialog__body">{children}</div>
      {actions && <div class="dialog__actions">{actions}</div>}
    </dialog>
  );
}
