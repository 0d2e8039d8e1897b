// Names of branches and tags as git accepts them (`git check-ref-format`),
// checked before a name reaches the refs folder: a `?ref=` of a read and the
// name of a new release both come from a client.

/** The longest short ref name accepted; git has no limit, but a file name does. */
export const MAX_REF_NAME_LENGTH = 200;

// git check-ref-format: no control characters, space, ~ ^ : ? * [ \ or DEL anywhere.
const FORBIDDEN_CHARACTERS = /[\u0000-\u0020\u007f~^:?*[\\]/;

/**
 * Why `name` is not a valid branch or tag name under git's rules (one or more
 * `/`-separated components), or undefined when it is. Beyond git's rules a
 * leading `-` is refused too, as `git check-ref-format --branch` does, since
 * such a name reads as an option on a command line.
 */
export function refNameProblem(name: string): string | undefined {
  if (name === '') return 'A ref name cannot be empty.';
  if (name.length > MAX_REF_NAME_LENGTH) return `A ref name may be at most ${MAX_REF_NAME_LENGTH} characters long.`;
  if (FORBIDDEN_CHARACTERS.test(name)) return 'A ref name cannot contain spaces, control characters or any of ~ ^ : ? * [ \\.';
  if (name.startsWith('-')) return 'A ref name cannot start with "-".';
  if (name === '@') return 'A ref name cannot be "@" alone.';
  if (name.includes('@{')) return 'A ref name cannot contain "@{".';
  if (name.includes('..')) return 'A ref name cannot contain "..".';
  if (name.endsWith('.')) return 'A ref name cannot end with ".".';
  for (const component of name.split('/')) {
    if (component === '') return 'A ref name cannot start or end with "/" or contain "//".';
    if (component.startsWith('.')) return 'No part of a ref name may start with ".".';
    if (component.endsWith('.lock')) return 'No part of a ref name may end with ".lock".';
  }
  return undefined;
}
