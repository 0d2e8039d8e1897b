// Relation values on reads (SPEC "Value rules inside data"): expanding the
// fields named in `include` one level, for a whole page in one pass, and
// omitting relations to types the caller may not read. Entries are copied,
// never mutated, because they may come from the index caches.

import type { ContentType } from '../model/content-type.ts';
import type { ResolvedEntry, StoredEntry } from '../model/entry.ts';
import type { TypeIndex } from './type-index.ts';

/** What expandRelations needs from the caller: other types' indexes and the caller's rights. */
export interface RelationContext {
  lookup: (typeName: string) => { type: ContentType; index: TypeIndex } | undefined;
  canReadType: (typeName: string) => boolean;
  isVisible: (typeName: string, entry: StoredEntry) => boolean;
  locale?: string;
}

/** Relation field names of `type` whose target the caller may not read. */
function unreadableRelationFields(type: ContentType, canReadType: (typeName: string) => boolean): string[] {
  const fields: string[] = [];
  for (const [name, def] of Object.entries(type.fields)) {
    if (def.type === 'relation' && (def.target === undefined || !canReadType(def.target))) fields.push(name);
  }
  return fields;
}

/**
 * Removes relation fields whose target type the caller cannot read (SPEC:
 * relations to private types are omitted). Returns the input when nothing is
 * removed, else copies.
 */
export function omitUnreadableRelations(
  entries: ResolvedEntry[],
  type: ContentType,
  canReadType: (typeName: string) => boolean,
): ResolvedEntry[] {
  const hidden = unreadableRelationFields(type, canReadType);
  if (hidden.length === 0) return entries;
  return entries.map((entry) => {
    const data = { ...entry.data };
    for (const name of hidden) delete data[name];
    return { ...entry, data };
  });
}

/**
 * Replaces the ids in the `include` relation fields with the related entries
 * resolved for ctx.locale (one level: their own relations stay ids). Ids that
 * are dangling or not visible to the caller are dropped (single → null);
 * fields whose target the caller cannot read are omitted.
 */
export function expandRelations(
  entries: ResolvedEntry[],
  type: ContentType,
  include: string[],
  ctx: RelationContext,
): ResolvedEntry[] {
  const fields = include.filter((name) => Object.hasOwn(type.fields, name) && type.fields[name].type === 'relation');
  const readable = omitUnreadableRelations(entries, type, ctx.canReadType);
  if (fields.length === 0 || readable.length === 0) return readable;
  const related = loadRelated(readable, type, fields, ctx);
  return readable.map((entry) => {
    const data = { ...entry.data };
    for (const name of fields) {
      if (!Object.hasOwn(data, name)) continue;
      const found = related.get(type.fields[name].target ?? '') ?? new Map<string, ResolvedEntry>();
      data[name] = expandValue(data[name], found, type.fields[name].multiple === true);
    }
    return { ...entry, data };
  });
}

function expandValue(value: unknown, found: Map<string, ResolvedEntry>, isMultiple: boolean): unknown {
  const ids = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  const expanded = ids.flatMap((id) => {
    const entry = typeof id === 'string' ? found.get(id) : undefined;
    return entry ? [entry] : [];
  });
  return isMultiple ? expanded : (expanded[0] ?? null);
}

/** Looks every referenced id up once per target type: target → id → visible resolved entry. */
function loadRelated(
  entries: ResolvedEntry[],
  type: ContentType,
  fields: string[],
  ctx: RelationContext,
): Map<string, Map<string, ResolvedEntry>> {
  const wanted = new Map<string, Set<string>>();
  for (const name of fields) {
    const target = type.fields[name].target;
    if (target === undefined || !ctx.canReadType(target)) continue;
    const ids = wanted.get(target) ?? new Set<string>();
    wanted.set(target, ids);
    for (const entry of entries) {
      const value = entry.data[name];
      for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') ids.add(id);
    }
  }
  const related = new Map<string, Map<string, ResolvedEntry>>();
  for (const [target, ids] of wanted) {
    const found = new Map<string, ResolvedEntry>();
    related.set(target, found);
    const source = ctx.lookup(target);
    if (!source) continue;
    for (const id of ids) {
      const stored = source.index.get(id);
      if (!stored || !ctx.isVisible(target, stored)) continue;
      const resolved = source.index.resolve(id, ctx.locale);
      if (resolved) found.set(id, omitUnreadableRelations([resolved], source.type, ctx.canReadType)[0]);
    }
  }
  return related;
}
