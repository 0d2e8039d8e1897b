// What a screen shows when there is nothing yet: what is missing and the
// next step ("No entries yet: create the first").
import type { ComponentChildren } from 'preact';

/** A centred message with an optional action (a button or link). */
export function EmptyState({ title, children, action }: { title: string; children?: ComponentChildren; action?: ComponentChildren }) {
  return (
    <section class="empty-state" aria-label={title}>
      <h2>{title}</h2>
      {children && <p>{children}</p>}
      {action}
    </section>
  );
}
