// The rules one file of the content repo must follow to be used: a type file
// parses and defines a valid type, an entry's files parse and hold valid
// values for its type. The index loader applies them to every file it reads
// (and skips what breaks them); push validation applies the very same rules
// to the files a push changes, and names each problem by path and field.
import { isAppError } from '../../errors/app-error.ts';
import { isLocalized, type ContentType } from '../model/content-type.ts';
import { EntryFileError, entryFromFiles, type EntryFileSet } from '../model/entry-from-files.ts';
import type { StoredEntry } from '../model/entry.ts';
import { validateFieldValues } from '../model/field-values.ts';
import { typeYamlToInput, typesDir } from '../model/type-files.ts';
import { normalizeContentTypeInput } from '../model/type-input.ts';
import { WORKSPACE_SLUG, readWorkspaceYaml, workspaceFilePath } from '../model/workspace-file.ts';

/** A file that breaks a rule: its repo path, the field to blame when there is one, and a full sentence. */
export interface FileProblem {
  path: string;
  field?: string;
  message: string;
}

/** A file read with the rules: its value, or the problems that keep it out. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problems: FileProblem[] };

/** Why a file in `{ws}/types/` is not used (the index) or may not land (a push): its name or place. */
export const MISNAMED_TYPE_FILE = 'A type file is named {type}.yaml, in lowercase letters, digits and hyphens, directly in the types folder.';

/** Whether the file is a dot file (`.gitkeep`): not content, so it is neither read nor reported, and a push may carry it. */
export function isDotFile(path: string): boolean {
  return path.slice(path.lastIndexOf('/') + 1).startsWith('.');
}

/** `path: field: message` (or `path: message`), as `cms check` and git's `remote:` lines print a problem. */
export function formatProblem(problem: FileProblem): string {
  return [problem.path, problem.field, problem.message].filter((part) => part !== undefined).join(': ');
}

/**
 * Reads the type file at `path` (`{ws}/types/{name}.yaml`, `name` given) as a
 * complete type; `typeExists` answers for relation targets. Throws nothing.
 */
export function checkTypeFile(path: string, name: string, text: string, typeExists: (name: string) => boolean): Checked<ContentType> {
  try {
    return { ok: true, value: normalizeContentTypeInput(typeYamlToInput(name, text), { mode: 'create', typeExists }) };
  } catch (error) {
    if (isAppError(error) && error.fields && Object.keys(error.fields).length > 0) {
      return { ok: false, problems: Object.entries(error.fields).map(([field, message]) => ({ path, field, message })) };
    }
    return { ok: false, problems: [{ path, message: messageOf(error) }] };
  }
}

/**
 * The problem of a top-level folder that holds a `workspace.yaml` but whose
 * name is no workspace slug (the rule the admin API creates workspaces
 * with): it is no workspace and none of its files is read. Undefined for a
 * good name. Throws nothing.
 */
export function checkWorkspaceFolder(folder: string): FileProblem | undefined {
  if (WORKSPACE_SLUG.test(folder)) return undefined;
  const message = `The folder name "${folder.slice(0, 80)}" is not a workspace slug (1 to 64 lowercase letters, digits and hyphens), so the folder is not read; rename it.`;
  return { path: workspaceFilePath(folder), message };
}

/**
 * The problems of `{ws}/workspace.yaml` (`text`): settings that break their
 * rule (readWorkspaceYaml()) and names in `types` that are no content type
 * of the workspace (`typeExists` answers). [] when the file is good. Throws nothing.
 */
export function checkWorkspaceFile(workspace: string, text: string, typeExists: (name: string) => boolean): FileProblem[] {
  const path = workspaceFilePath(workspace);
  const read = readWorkspaceYaml(workspace, text);
  const problems: FileProblem[] = read.problems.map((problem) => ({ path, ...problem }));
  if (problems.some((problem) => problem.field === 'types' || problem.field === undefined)) return problems;
  return [...problems, ...missingTypeProblems(workspace, read.workspace.type_order, typeExists)];
}

/**
 * The workspaces whose `{ws}/workspace.yaml` is judged again when `paths`
 * change: the file itself, or a type file beside it (its `types` names the
 * workspace's types). Throws nothing.
 */
export function workspaceFilesJudgedAgain(paths: readonly string[]): string[] {
  const workspaces = new Set<string>();
  for (const path of paths) {
    const workspace = path.split('/', 1)[0];
    if (path === workspaceFilePath(workspace) || path.startsWith(`${typesDir(workspace)}/`)) workspaces.add(workspace);
  }
  return [...workspaces];
}

/** A problem of `{ws}/workspace.yaml` for each name of its type order (`types`) that `typeExists` denies. */
export function missingTypeProblems(workspace: string, typeOrder: readonly string[], typeExists: (name: string) => boolean): FileProblem[] {
  return typeOrder
    .filter((name) => !typeExists(name))
    .map((name) => ({ path: workspaceFilePath(workspace), field: 'types', message: `There is no content type "${name}" (${typesDir(workspace)}/${name}.yaml) in this workspace.` }));
}

/** Options of checkEntryFiles(). */
export interface EntryRules {
  /** The title and every required field must hold a value (a new entry, as on create); otherwise only given values are checked. */
  requireFields?: boolean;
}

/**
 * Reads an entry from its root file (at `path`) and translation files as
 * `type` defines it. Values of fields no longer in the type are kept and not
 * checked. Problems name the file that holds the bad value. Throws nothing.
 */
export function checkEntryFiles(path: string, files: EntryFileSet, type: ContentType, rules: EntryRules = {}): Checked<StoredEntry> {
  let entry: StoredEntry;
  try {
    const { extra: _extra, ...parsed } = entryFromFiles(files, type);
    entry = parsed;
  } catch (error) {
    return { ok: false, problems: [fileProblem(path, error)] };
  }
  const problems = valueProblems(path, entry.data, type, rules.requireFields === true);
  // The API never makes an entry without a title, so a file without one (no front matter at all, say) is not read as one.
  if (entry.title.trim() === '') problems.unshift({ path, field: 'title', message: rules.requireFields ? 'A new entry needs a title.' : 'An entry needs a title: a `title:` in its front matter.' });
  for (const [locale, translation] of Object.entries(entry.translations)) {
    if (isLocalized(type) && locale === type.default_locale) continue; // the root file's own values, checked above
    problems.push(...valueProblems(path.replace(/\.md$/, `.${locale}.md`), translation.data, type, false));
  }
  return problems.length === 0 ? { ok: true, value: entry } : { ok: false, problems };
}

function valueProblems(path: string, values: Record<string, unknown>, type: ContentType, requireFields: boolean): FileProblem[] {
  // Nearly always every key is a field, and the values are checked as they are, without a copy.
  const current = Object.keys(values).every((key) => Object.hasOwn(type.fields, key))
    ? values
    : Object.fromEntries(Object.entries(values).filter(([key]) => Object.hasOwn(type.fields, key)));
  const { errors } = validateFieldValues(current, type.fields, { partial: !requireFields });
  return Object.entries(errors).map(([field, message]) => ({ path, field, message }));
}

// An EntryFileError names the file (a translation, say) and the key to blame.
function fileProblem(rootPath: string, error: unknown): FileProblem {
  if (!(error instanceof EntryFileError) || error.file === '') return { path: rootPath, message: messageOf(error) };
  const path = `${rootPath.slice(0, rootPath.lastIndexOf('/') + 1)}${error.file}`;
  return error.field ? { path, field: error.field, message: error.message } : { path, message: error.message };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
