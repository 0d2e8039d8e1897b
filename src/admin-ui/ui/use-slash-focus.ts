// "/" focuses a screen's search box, as in GitHub or Gmail, unless the user
// is typing in another field.
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/** Focuses `input` when "/" is pressed outside any text field. */
export function useSlashFocus(input: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const focusSearch = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== '/' || target.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener('keydown', focusSearch);
    return () => document.removeEventListener('keydown', focusSearch);
  }, []);
}
