// One section of content types in the sidebar (collections, or single
// pages), in the stored order. Users who may change types reorder them by
// dragging the handle (mouse, pen or touch) or with the arrow keys on it;
// each move is announced and saved at once by the caller.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { ContentType } from '../api/types.ts';
import { Link, useLocation } from '../router/router.tsx';

export interface TypeNavProps {
  title: string;
  types: ContentType[];
  /** The link of a type, or undefined while its screen is not built. */
  hrefOf: (type: ContentType) => string | undefined;
  /** Absent when the user may not reorder. */
  onReorder?: (names: string[]) => void;
}

const HOW_TO_MOVE = 'Drag, or use the up and down arrow keys, to change the order.';

/** A titled list of types with drag and keyboard reordering. */
export function TypeNav({ title, types, hrefOf, onReorder }: TypeNavProps) {
  const location = useLocation();
  const [dragOrder, setDragOrder] = useState<string[]>();
  const [announcement, setAnnouncement] = useState('');
  const [moved, setMoved] = useState<string>();
  const list = useRef<HTMLUListElement>(null);
  const howToId = useId();
  const names = dragOrder ?? types.map((type) => type.name);
  const byName = new Map(types.map((type) => [type.name, type]));
  const labelOf = (name: string) => byName.get(name)?.label || name;

  const commit = (order: string[], moved: string) => {
    setDragOrder(undefined);
    if (order.join('\n') === types.map((type) => type.name).join('\n')) return;
    setAnnouncement(`${labelOf(moved)} moved to position ${order.indexOf(moved) + 1} of ${order.length}.`);
    setMoved(moved);
    onReorder?.(order);
  };

  // Moving a list item in the DOM can take focus from its handle; give it back, so arrow keys go on working.
  useEffect(() => {
    if (moved) list.current?.querySelector<HTMLElement>(`[data-name="${CSS.escape(moved)}"] .type-nav__handle`)?.focus();
  }, [types, moved]);

  const onKeyDown = (event: KeyboardEvent, name: string) => {
    const step = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
    const from = names.indexOf(name);
    if (step === 0 || from + step < 0 || from + step >= names.length) return;
    event.preventDefault();
    commit(move(names, from, from + step), name);
  };

  const onPointerDown = (event: PointerEvent, name: string) => {
    if (event.button !== 0) return;
    const handle = event.currentTarget as HTMLElement;
    handle.setPointerCapture(event.pointerId);
    let order = names;
    const onMove = (moveEvent: PointerEvent) => {
      const target = indexAt(list.current, moveEvent.clientY);
      const from = order.indexOf(name);
      if (target !== undefined && target !== from) {
        order = move(order, from, target);
        setDragOrder(order);
      }
    };
    const onUp = () => {
      handle.removeEventListener('pointermove', onMove);
      handle.removeEventListener('pointerup', onUp);
      handle.removeEventListener('pointercancel', onUp);
      commit(order, name);
    };
    handle.addEventListener('pointermove', onMove);
    handle.addEventListener('pointerup', onUp);
    handle.addEventListener('pointercancel', onUp);
  };

  if (types.length === 0) return null;
  return (
    <section class="type-nav" aria-label={title}>
      <h2 class="sidebar__heading">{title}</h2>
      <ul ref={list} class="type-nav__list">
        {names.map((name) => {
          const type = byName.get(name);
          const href = type && hrefOf(type);
          return (
            <li key={name} data-name={name} class={dragOrder ? 'type-nav__item type-nav__item--dragging' : 'type-nav__item'}>
              {href ? (
                <Link href={href} class="sidebar__link" aria-current={location.path === href ? 'page' : undefined}>
                  {labelOf(name)}
                </Link>
              ) : (
                <span class="sidebar__link sidebar__link--plain">{labelOf(name)}</span>
              )}
              {onReorder && (
                <button
                  type="button"
                  class="type-nav__handle"
                  aria-label={`Move ${labelOf(name)}`}
                  aria-describedby={howToId}
                  title={HOW_TO_MOVE}
                  onKeyDown={(event) => onKeyDown(event, name)}
                  onPointerDown={(event) => onPointerDown(event, name)}
                />
              )}
            </li>
          );
        })}
      </ul>
      {/* The handles' instructions for assistive technology, said once for all of them; the tooltip only reaches a mouse. */}
      {onReorder && (
        <p id={howToId} class="visually-hidden">
          {HOW_TO_MOVE}
        </p>
      )}
      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </section>
  );
}

function move(order: string[], from: number, to: number): string[] {
  const next = [...order];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

// The position the pointer is over: the first item whose middle is below it, or the last.
function indexAt(list: HTMLUListElement | null, y: number): number | undefined {
  if (!list) return undefined;
  const items = [...list.children];
  const index = items.findIndex((item) => {
    const box = item.getBoundingClientRect();
    return y < box.top + box.height / 2;
  });
  return index === -1 ? items.length - 1 : index;
}
