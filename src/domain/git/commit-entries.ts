// The entries of one type as a commit holds them, read with the loader's
// rules (files that break them are left out, as the loader would skip them).
// Push validation compares against these when the change does not start at
// HEAD, so the in-memory index is not the "before" (a rebase onto the upstream).
import type { CommitFiles } from '../../storage/git-cli/git-peer.ts';
import { checkEntryFiles, checkTypeFile } from '../content/file-rules.ts';
import type { ContentType } from '../model/content-type.ts';
import { entriesDir, parseEntryFileName } from '../model/entry-paths.ts';
import type { StoredEntry } from '../model/entry.ts';
import { TYPE_FILE, typeFilePath } from '../model/type-files.ts';
import type { EntriesBefore } from './push-validation.ts';

/** EntriesBefore that reads `commit` (one listing and one batch read per type asked for). */
export function entriesAtCommit(files: CommitFiles, commit: string): EntriesBefore {
  return async (workspace, typeName) => {
    const typePath = typeFilePath(workspace, typeName);
    const typeText = (await files.readFilesAt(commit, [typePath])).get(typePath);
    if (typeText === undefined || !TYPE_FILE.test(`${typeName}.yaml`)) return [];
    // Relation targets do not matter for reading values back.
    const type = checkTypeFile(typePath, typeName, typeText, () => true);
    return type.ok ? readEntries(files, commit, workspace, type.value) : [];
  };
}

async function readEntries(files: CommitFiles, commit: string, workspace: string, type: ContentType): Promise<StoredEntry[]> {
  const folder = entriesDir(workspace, type.name);
  const texts = await files.readFilesAt(commit, await files.listFilesAt(commit, folder));
  const sets = new Map<string, { root?: string; translations: Record<string, string> }>();
  for (const [path, text] of texts) {
    const file = parseEntryFileName(path.slice(folder.length + 1));
    if (!file) continue;
    const set = sets.get(file.slug) ?? { translations: {} };
    if (file.locale === undefined) set.root = text;
    else set.translations[file.locale] = text;
    sets.set(file.slug, set);
  }
  const entries: StoredEntry[] = [];
  for (const [slug, { root, translations }] of sets) {
    if (root === undefined) continue;
    const checked = checkEntryFiles(`${folder}/${slug}.md`, { slug, root, translations }, type);
    if (checked.ok) entries.push(checked.value);
  }
  return entries;
}
