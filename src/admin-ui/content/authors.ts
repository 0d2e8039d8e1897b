// Who wrote an entry, by name: the users' names are loaded once per screen.
import { useEffect, useState } from 'preact/hooks';
import { listAuthors } from '../api/authors.ts';

/** Author id → name; empty until loaded (or when the names cannot be read). */
export function useAuthors(): Map<string, string> {
  const [authors, setAuthors] = useState(new Map<string, string>());
  useEffect(() => {
    listAuthors().then(
      (list) => setAuthors(new Map(list.map((author) => [author.id, author.name]))),
      () => undefined,
    );
  }, []);
  return authors;
}

/** A user's name, "API token" for a change made with a token, or undefined when unknown. */
export function authorName(actor: string | undefined, authors: Map<string, string>): string | undefined {
  if (!actor) return undefined;
  if (actor.startsWith('token:')) return 'API token';
  return authors.get(actor);
}
