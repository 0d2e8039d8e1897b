// A button for an action the server would refuse right now. With a reason it
// stays in its place, disabled, with the reason in words beside it, tied to
// the button by aria-describedby: a `title` tooltip never shows on a phone or
// to someone using the keyboard. Without one it is an ordinary Button.
import { useId } from 'preact/hooks';
import { Button, type ButtonProps } from './button.tsx';

export interface UnavailableButtonProps extends ButtonProps {
  /** Why the action cannot be done now ("You cannot delete yourself."); undefined when it can. */
  unavailable: string | undefined;
}

/** A Button, disabled with its reason shown beside it when `unavailable` says why. */
export function UnavailableButton({ unavailable, children, ...button }: UnavailableButtonProps) {
  const reasonId = useId();
  if (unavailable === undefined) return <Button {...button}>{children}</Button>;
  return (
    <>
      <Button {...button} disabled aria-describedby={reasonId}>
        {children}
      </Button>
      <span id={reasonId} class="unavailable-reason">
        {unavailable}
      </span>
    </>
  );
}
