// A value that follows another after a pause, so a search box asks the
// server once the typing stops rather than on every key.
import { useEffect, useState } from 'preact/hooks';

/** `value`, `delayMs` after it last changed. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
