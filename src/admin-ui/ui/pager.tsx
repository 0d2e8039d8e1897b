// Paging for long lists: where we are ("51–100 of 10,000") and the way to
// the previous and next page. The list itself is fetched a page at a time.
import { Button } from './button.tsx';

export interface PagerProps {
  offset: number;
  limit: number;
  total: number;
  /** Called with the offset of the page to show. */
  onOffset: (offset: number) => void;
  /** What is being paged, for the accessible name ("Entries pages"). */
  label: string;
}

/** Previous / next with the range shown. */
export function Pager({ offset, limit, total, onOffset, label }: PagerProps) {
  if (total <= limit && offset === 0) return null;
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  const format = (n: number) => n.toLocaleString();
  return (
    <nav class="pager" aria-label={label}>
      <Button onClick={() => onOffset(Math.max(0, offset - limit))} disabled={offset === 0}>
        Previous page
      </Button>
      <span class="pager__range" aria-live="polite">
        {format(first)}–{format(last)} of {format(total)}
      </span>
      <Button onClick={() => onOffset(offset + limit)} disabled={last >= total}>
        Next page
      </Button>
    </nav>
  );
}
