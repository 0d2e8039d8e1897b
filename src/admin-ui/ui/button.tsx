// Buttons: one look per intent. `busy` shows progress on the button itself,
// so one action never blocks the rest of the screen.
import type { ButtonHTMLAttributes } from 'preact';

/** What a button is for: the main action, others, a destructive one, or a quiet one. */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'quiet';

export interface ButtonProps extends ButtonHTMLAttributes {
  variant?: ButtonVariant;
  /** The action is running: the button is disabled and says so to assistive technology. */
  busy?: boolean;
}

/** A <button type="button"> (pass type="submit" in forms). */
export function Button({ variant = 'secondary', busy = false, class: className, type = 'button', disabled, children, ...rest }: ButtonProps) {
  return (
    <button {...rest} type={type} class={['button', `button--${variant}`, className].filter(Boolean).join(' ')} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy && <span class="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
