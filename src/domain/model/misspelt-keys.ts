// One rule for naming the key an unknown key likely misspells ("did you mean
// …?"), shared by every file and body with a closed set of keys: workspace
// files, type files and type bodies (top-level keys and field definitions).
import { nearestWord } from '../../lib/edit-distance.ts';

/** How many letters (added, removed, changed, two swapped; case ignored) an unknown key may be from a known one to be taken for it misspelt. */
const MISSPELT_WITHIN = 2;

/** The key of `known` that `key` is likely a misspelling of, or undefined. */
export function misspeltKey(key: string, known: readonly string[]): string | undefined {
  return nearestWord(key, known, MISSPELT_WITHIN);
}

/** `statement` as a sentence: ended with `.`, or with `: did you mean "{meant}"?` when there is a key it likely meant. */
export function didYouMean(statement: string, meant: string | undefined): string {
  return meant === undefined ? `${statement}.` : `${statement}: did you mean "${meant}"?`;
}
