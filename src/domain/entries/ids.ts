// Entry id generation. Ids are opaque, random and never reused (API.md "Entries").
import { customAlphabet } from 'nanoid';

/** Lowercase-only so ids stay distinct on case-insensitive file systems. */
const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 16;

const generate = customAlphabet(ID_ALPHABET, ID_LENGTH);

/**
 * A new random entry id: 16 characters of `0-9a-z` (about 82 bits of entropy).
 * Used when an entry is created; single pages use their type name instead. Throws nothing.
 */
export function newEntryId(): string {
  return generate();
}
