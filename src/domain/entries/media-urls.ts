// Media field values in responses: the public API turns filenames into
// absolute URLs, also inside expanded relations; the admin API keeps filenames.
import type { ContentType } from '../model/content-type.ts';
import type { ResolvedEntry } from '../model/entry.ts';

/** How media field values are presented: public reads give absolute URLs, admin reads keep filenames. */
export type MediaPresenter = (filename: string) => string;

/** Replaces media filenames with `mediaUrl(filename)` in each entry and in its expanded relations. */
export function presentMedia(entries: ResolvedEntry[], type: ContentType, mediaUrl: MediaPresenter, typeOf: (name: string) => ContentType | undefined): ResolvedEntry[] {
  return entries.map((entry) => {
    const data: Record<string, unknown> = { ...entry.data };
    for (const [name, field] of Object.entries(type.fields)) {
      const value = data[name];
      if (field.type === 'media' && Array.isArray(value)) data[name] = value.map((file) => mediaUrl(String(file)));
      const target = field.type === 'relation' && field.target ? typeOf(field.target) : undefined;
      if (target && Array.isArray(value)) data[name] = value.map((item) => presentRelated(item, target, mediaUrl, typeOf));
      else if (target) data[name] = presentRelated(value, target, mediaUrl, typeOf);
    }
    return { ...entry, data };
  });
}

// Expanded relations are entry objects and get their media presented too; plain ids stay as they are.
function presentRelated(value: unknown, target: ContentType, mediaUrl: MediaPresenter, typeOf: (name: string) => ContentType | undefined): unknown {
  if (typeof value !== 'object' || value === null || !('id' in value)) return value;
  return presentMedia([value as ResolvedEntry], target, mediaUrl, typeOf)[0];
}

