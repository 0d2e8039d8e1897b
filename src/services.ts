// The composition root: the only place services are constructed and wired.
// Everything is passed explicitly; there are no module-level singletons.
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Config } from './config/config.ts';
import { ContentIndex } from './domain/content/content-index.ts';
import { EntryService } from './domain/entries/entry-service.ts';
import { HealthService } from './domain/health.ts';
import { TypeService } from './domain/types/type-service.ts';
import { WorkspaceService } from './domain/workspaces/workspace-service.ts';
import type { Logger } from './lib/logger.ts';
import { ContentRepo } from './storage/content-repo.ts';
import { StateStore } from './storage/state-store.ts';
import { watchExternalCommits } from './domain/content/external-commits.ts';

export interface Services {
  config: Config;
  logger: Logger;
  repo: ContentRepo;
  state: StateStore;
  content: ContentIndex;
  health: HealthService;
  workspaces: WorkspaceService;
  types: TypeService;
  entries: EntryService;
  /** Stops background work (the external-commit watcher, pending state writes). */
  close(): Promise<void>;
}

/**
 * Opens the data root (creating the content repo and the default workspace on
 * first start), loads every workspace into memory and starts watching for
 * commits made outside the server.
 */
export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const repo = await ContentRepo.open(path.join(config.dataDir, 'content'));
  const state = await StateStore.open(path.join(config.dataDir, 'state'));
  const content = new ContentIndex(repo, (problem) => logger.error('skipped a file that cannot be indexed', problem));
  const workspaces = await WorkspaceService.load(repo);
  await workspaces.ensure(config.defaultWorkspace, config.defaultWorkspace === 'default' ? 'Default' : config.defaultWorkspace);
  for (const workspace of workspaces.listAll()) await content.loadWorkspace(workspace.slug);

  const stopWatching = watchExternalCommits({ repo, content, workspaces, logger, intervalMs: config.watchIntervalMs });
  return {
    config,
    logger,
    repo,
    state,
    content,
    health: await HealthService.create(await packageInfo()),
    workspaces,
    types: new TypeService(repo, content, workspaces),
    entries: new EntryService(repo, content),
    close: async () => {
      stopWatching();
    },
  };
}

async function packageInfo(): Promise<{ name: string; version: string }> {
  const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  return { name: manifest.name, version: manifest.version };
}
