// `cms check`: loads every workspace of a content repository with the
// server's own loader (ContentIndex and MediaLibrary, the rules of
// content/file-rules.ts) from the files in the folder, and prints each file
// the server would skip: the list a running server keeps in its problems
// register (GET /api/v1/workspaces/{ws}/problems). Used as a pre-commit hook and as a CI step
// (docs/cli.md); it writes nothing.
import { loadConfig } from '../config/config.ts';
import { ContentIndex } from '../domain/content/content-index.ts';
import { formatProblem } from '../domain/content/file-rules.ts';
import { ProblemRegister, type ContentProblem } from '../domain/content/problem-register.ts';
import { MediaLibrary } from '../domain/media/media-library.ts';
import { typeFilePath, typesDir } from '../domain/model/type-files.ts';
import { WORKSPACE_SLUG, workspaceFilePath } from '../domain/model/workspace-file.ts';
import { changedSince, UnknownCommitError, WorkingFolder } from '../storage/working-folder.ts';
import { stringOption, UsageError, type CommandSpec } from './arguments.ts';

export const checkCommand: CommandSpec<number> = {
  name: 'check',
  summary: 'Checks every workspace, content type, entry and media record of the content repository with the rules the server loads them by; prints each problem as `path: field: message`. Exit code 0 when clean, 1 when not.',
  options: {
    data: { type: 'string', value: 'DIR', description: 'a data root (holding content/) or a content repository itself; default $CMS_DATA_DIR or the current folder' },
    since: { type: 'string', value: 'COMMIT', description: 'report only files changed between COMMIT and the folder (needs git), e.g. HEAD in a pre-commit hook' },
    json: { type: 'boolean', description: 'print { "problems": [{ workspace, path, field?, message }] } instead of lines' },
  },
  notes: ['The files are read as they are in the folder, uncommitted edits included.'],
  async run(input) {
    const config = loadConfig({ flags: { data: stringOption(input, 'data') } });
    const folder = contentFolder(config.dataDir, input.values.data !== undefined ? '--data' : 'CMS_DATA_DIR');
    const { dir } = folder;
    const since = stringOption(input, 'since');
    let problems = await findProblems(folder);
    if (since !== undefined) {
      const changed = await changedPaths(config.git, dir, since);
      problems = problems.filter((problem) => isAffected(problem.path, changed));
    }
    if (input.values.json) process.stdout.write(`${JSON.stringify({ problems: problems.map(({ workspace, path, field, message }) => ({ workspace, path, field, message })) }, null, 2)}\n`);
    else for (const problem of problems) process.stdout.write(`${formatProblem(problem)}\n`);
    if (!input.values.json) process.stderr.write(problems.length === 0 ? `${dir}: no problems.\n` : `${problems.length} problem(s) in ${dir}.\n`);
    return problems.length === 0 ? 0 : 1;
  },
};

/** Every problem the server's loader reports for the content repository `files`, in path order. */
export async function findProblems(files: WorkingFolder): Promise<ContentProblem[]> {
  const register = new ProblemRegister();
  const report = register.reporter();
  const content = new ContentIndex(files, report);
  const media = new MediaLibrary(files, report);
  for (const slug of await files.listFolders('')) {
    await content.checkFolderName(slug);
    if (!WORKSPACE_SLUG.test(slug)) continue;
    const text = await files.readFile(workspaceFilePath(slug));
    // Without workspace.yaml the folder is no workspace, as for the server.
    if (text === undefined) continue;
    await content.loadWorkspace(slug);
    await media.loadWorkspace(slug);
  }
  return register.list();
}

function contentFolder(dir: string, setting: string): WorkingFolder {
  const located = WorkingFolder.locate(dir);
  if (typeof located === 'string') throw new UsageError(`${setting} ${dir} ${located}.`);
  return located;
}

async function changedPaths(git: Parameters<typeof changedSince>[0], dir: string, since: string): Promise<Set<string>> {
  try {
    return await changedSince(git, dir, since);
  } catch (error) {
    if (error instanceof UnknownCommitError) throw new UsageError(`--since ${since}: ${error.message}.`);
    throw error;
  }
}

// A changed type file puts every entry of the type in question, and the
// workspace.yaml that names types (a deleted type it still lists).
// Any file at any depth under entries/{type}/ counts, not only what
// parseEntryPath reads: the loader reports files in subfolders there too.
function isAffected(file: string, changed: Set<string>): boolean {
  const entry = /^([^/]+)\/entries\/([^/]+)\//.exec(file);
  const workspace = /^([^/]+)\/workspace\.yaml$/.exec(file);
  return (
    changed.has(file) ||
    (entry !== null && changed.has(typeFilePath(entry[1], entry[2]))) ||
    (workspace !== null && [...changed].some((path) => path.startsWith(`${typesDir(workspace[1])}/`)))
  );
}
