// `cms media hash`: records the SHA-256 of media files whose metadata has
// none (domain/media/hash-backfill.ts), so no server has to hash them again
// after each start. It commits through the server's own write path
// (ContentWriter and MediaWriter), so it holds the data root's lock like
// `cms user`: a running server holds it and commits through its own queue,
// so the command refuses to run beside one, saying why and what to do
// (docs/cli.md). A replica never commits; its primary's hashes reach it
// with the next pull.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, type Config } from '../config/config.ts';
import { StartupError } from '../errors/startup-error.ts';
import { ContentWriter } from '../domain/content/content-writer.ts';
import { backfillHashes, type HashBackfill } from '../domain/media/hash-backfill.ts';
import { MediaLibrary } from '../domain/media/media-library.ts';
import { MediaWriter } from '../domain/media/media-writer.ts';
import { EventBus } from '../domain/model/events.ts';
import { WORKSPACE_SLUG, workspaceFilePath } from '../domain/model/workspace-file.ts';
import { ContentRepo } from '../storage/content-repo.ts';
import { lockDataRoot } from '../storage/data-lock.ts';
import { MediaStore } from '../storage/media-store.ts';
import { stringOption, type CommandSpec } from './arguments.ts';

// What a user beside a running server reads: the command is an optimization, and nothing waits for it.
const BESIDE_A_SERVER =
  'cms media hash commits to the content repository, so it runs only while no server uses the data root: stop the server, run it, then start the server again. Until then the server serves these files as they are, hashing each once per start. Delete that file if no git-cms runs there.';

export const mediaHashCommand: CommandSpec<number> = {
  name: 'media hash',
  summary: 'Records the SHA-256 of every media file whose metadata has none (written before the field existed, or by hand), in one commit per workspace. Exit code 1 when a file could not be hashed.',
  options: {
    data: { type: 'string', value: 'DIR', description: 'the data root holding content/ and media/; default $CMS_DATA_DIR or the current folder' },
    'dry-run': { type: 'boolean', description: 'hash and print the files, but commit nothing' },
  },
  notes: [
    'Files missing on disk, or whose size is not the one their metadata names, are printed and left without a hash.',
    'A running server holds the data root (state/cms.lock) and commits through its own queue: this command refuses to run beside it, and says so. Until the hashes are recorded, a server hashes such a file on its first request after each start; nothing else needs them (a workspace folder moved with git takes such files along by name).',
  ],
  async run(input) {
    const config = loadConfig({ flags: { data: stringOption(input, 'data') } });
    const setting = input.values.data !== undefined ? '--data' : 'CMS_DATA_DIR';
    if (config.role === 'replica') throw new StartupError('A replica never commits: run cms media hash on the primary; the replica gets the hashes with its next pull.');
    const contentDir = path.join(config.dataDir, 'content');
    if (!(await access(path.join(contentDir, '.git')).then(() => true, () => false))) throw new StartupError(`${setting} ${config.dataDir} holds no content repository (content/.git).`);
    const lock = await lockDataRoot(config.dataDir, setting, BESIDE_A_SERVER);
    try {
      const results = await hashWorkspaces(config, contentDir, input.values['dry-run'] === true);
      return report(results, input.values['dry-run'] === true);
    } finally {
      await lock.release();
    }
  },
};

async function hashWorkspaces(config: Config, contentDir: string, dryRun: boolean): Promise<Map<string, HashBackfill>> {
  const repo = await ContentRepo.open(contentDir, { splitIndex: config.git.splitIndex, packing: false, git: { bin: config.git.bin, env: config.git.env } });
  try {
    // Nothing listens: the media items do not change, and no server runs beside this command.
    const writer = new ContentWriter(repo, new EventBus(() => undefined), async () => ({ events: [], workspaces: [] }));
    // Records that cannot be read are skipped here as by the server; `cms check` reports them.
    const library = new MediaLibrary(repo, () => undefined);
    const store = await MediaStore.open(config.dataDir);
    const deps = { writer, library, store, mediaWriter: new MediaWriter(library, { sizeOf: (workspace, filename) => store.sizeOf('file', workspace, filename) }) };
    const results = new Map<string, HashBackfill>();
    for (const workspace of await repo.listFolders('')) {
      if (!WORKSPACE_SLUG.test(workspace) || (await repo.readFile(workspaceFilePath(workspace))) === undefined) continue;
      await library.loadWorkspace(workspace);
      results.set(workspace, await backfillHashes(deps, workspace, { dryRun }));
    }
    return results;
  } finally {
    await repo.close();
  }
}

function report(results: Map<string, HashBackfill>, dryRun: boolean): number {
  let hashed = 0;
  let problems = 0;
  for (const [workspace, result] of results) {
    for (const file of result.hashed) process.stdout.write(`${workspace}/${file.filename}: ${file.sha256}\n`);
    for (const problem of result.problems) process.stderr.write(`${workspace}/${problem.filename}: ${problem.message}\n`);
    if (result.commit) process.stdout.write(`Recorded the SHA-256 of ${result.hashed.length} file(s) in ${workspace}: commit ${result.commit.slice(0, 12)}.\n`);
    hashed += result.hashed.length;
    problems += result.problems.length;
  }
  if (hashed === 0 && problems === 0) process.stdout.write('Every media record has its SHA-256; nothing to do.\n');
  else if (dryRun) process.stdout.write(`Dry run: ${hashed} file(s) hashed, nothing committed.\n`);
  if (problems > 0) process.stderr.write(`${problems} file(s) could not be hashed.\n`);
  return problems === 0 ? 0 : 1;
}
