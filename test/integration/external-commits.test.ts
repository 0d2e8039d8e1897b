// Runs of outside commits are re-read at their own last commit, not at HEAD:
// a developer's next commits may land while a run is taken in, and reading
// them early would leave the index wrong once a later run nets out to no
// change (a file broken, then restored to what it was).
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContentIndex } from '../../src/domain/content/content-index.ts';
import { ContentWriter, type ContentFiles } from '../../src/domain/content/content-writer.ts';
import { reindexChangedPaths, watchExternalCommits } from '../../src/domain/content/external-commits.ts';
import { ProblemRegister } from '../../src/domain/content/problem-register.ts';
import { EventBus, type DomainEvent } from '../../src/domain/model/events.ts';
import { MediaLibrary } from '../../src/domain/media/media-library.ts';
import { WorkspaceService } from '../../src/domain/workspaces/workspace-service.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import { commitByHand, externalCommit, git, headOid } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';

const WORKSPACE_FILE = 'site/workspace.yaml';
const TYPE_FILE = 'site/types/posts.yaml';
const POST = 'site/entries/posts/hello.md';
const CATEGORIES = 'site/media/_categories.yaml';
const picture = (filename: string) => `site/media/${filename}.yaml`;
const record = (title: string, uploadedAt: string) => `title: ${title}\nmime: image/png\nuploaded_at: ${uploadedAt}\n`;
const post = (title: string) => `---\nid: hello-id\ntitle: ${title}\nstatus: published\n---\n`;
const type = (label: string) => `label: ${label}\nfields:\n  body:\n    type: markdown\n`;

describe('Re-reading outside commits', () => {
  let dir: string;
  let repo: ContentRepo;
  let content: ContentIndex;
  let workspaces: WorkspaceService;
  let media: MediaLibrary;
  let problems: ProblemRegister;
  let writer: ContentWriter;
  let told: DomainEvent[];
  let logged: string[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'external-commits-'));
    repo = await ContentRepo.open(path.join(dir, 'content'), { packing: false });
    problems = new ProblemRegister();
    logged = [];
    // Wired as services.ts wires it: each skipped file is logged once it is registered.
    const logger = createLogger('info', (line) => logged.push(line));
    content = new ContentIndex(repo, problems.reporter((problem) => logger.error('skipped a file that cannot be indexed', { ...problem })));
    media = new MediaLibrary(repo, problems.reporter());
    const events = new EventBus((error) => {
      throw error;
    });
    told = [];
    events.on((event) => {
      told.push(event);
    });
    writer = new ContentWriter(repo, events, (changes, at) => reindexChangedPaths({ content, workspaces, indexes: [media], problems }, changes, at));
    workspaces = await WorkspaceService.load(repo, writer);
  });

  afterEach(async () => {
    await repo.close();
    await rm(dir, { recursive: true, force: true });
  });

  // Takes in the run (from, to] as the watch does, wherever HEAD is by then.
  const receive = (from: string, to: string) => writer.transaction((tx) => tx.receiveCommits(from, to));
  const commit = (write: Record<string, string>, message: string) => externalCommit(repo.dir, { write }, message);
  const title = () => content.findType('site', 'posts')?.index.getBySlug('hello')?.title;

  it('reads a run at its last commit while later commits have already landed', async () => {
    const start = await headOid(repo.dir);
    const first = await commit({ [WORKSPACE_FILE]: 'label: Site\ntypes:\n  - posts\n', [TYPE_FILE]: type('Posts'), [POST]: post('First'), [CATEGORIES]: '- news\n' }, 'Add the site');
    const second = await commit({ [WORKSPACE_FILE]: '- not\n- a mapping\n', [TYPE_FILE]: type('Articles'), [POST]: post('Second'), [CATEGORIES]: '- sport\n' }, 'Change everything');

    await receive(start, first);
    expect(workspaces.find('site')).to.include({ label: 'Site' });
    expect(workspaces.find('site')?.type_order).to.deep.equal(['posts']);
    expect(content.findType('site', 'posts')?.type.label).to.equal('Posts');
    expect(title()).to.equal('First');
    expect(media.storedCategories('site')).to.deep.equal(['news']);
    expect(problems.list('site')).to.deep.equal([]);

    await receive(first, second);
    expect(content.findType('site', 'posts')?.type.label).to.equal('Articles');
    expect(title()).to.equal('Second');
    expect(media.storedCategories('site')).to.deep.equal(['sport']);
    expect(problems.list('site').map((problem) => problem.path)).to.deep.equal([WORKSPACE_FILE]);
  });

  it('stays right when the next run restores the files to what the first run read', async () => {
    const start = await headOid(repo.dir);
    const ordered = await commit({ [WORKSPACE_FILE]: 'label: Site\ntypes:\n  - posts\n', [TYPE_FILE]: type('Posts'), [POST]: post('First') }, 'Order the types');
    await commit({ [WORKSPACE_FILE]: '- posts\n', [POST]: post('Broken') }, 'Break the files');
    await receive(start, ordered);
    const fixed = await commit({ [WORKSPACE_FILE]: 'label: Site\ntypes:\n  - posts\n', [POST]: post('First') }, 'Fix the files');
    await receive(ordered, fixed);
    expect(workspaces.find('site')?.type_order).to.deep.equal(['posts']);
    expect(title()).to.equal('First');
    expect(problems.list('site')).to.deep.equal([]);
  });

  it('reads a run the watch finds late after the server\'s own commits on top of it, which wrote the same file', async () => {
    const start = await headOid(repo.dir);
    const added = await commit({ [WORKSPACE_FILE]: 'label: Site\ntypes:\n  - posts\n', [TYPE_FILE]: type('Posts') }, 'Add the site');
    await receive(start, added);
    // A developer's commit the watch has not seen yet, then a server commit of the same file on top of it.
    await commit({ [WORKSPACE_FILE]: 'label: Site by hand\ntypes:\n  - posts\n' }, 'Rename the site by hand');
    await workspaces.setTypeOrder('site', ['posts']);
    const stop = watchExternalCommits({ writer, logger: createLogger('info', (line) => logged.push(line)), intervalMs: 10 });
    try {
      await pollUntil(async () => logged.filter((line) => line.includes('indexed an external commit')).length, (runs) => runs > 0);
    } finally {
      stop();
    }
    expect(writer.indexedHead).to.equal(await headOid(repo.dir));
    // What memory holds is what the file says at HEAD, which the server's commit wrote last.
    expect(await repo.readFile(WORKSPACE_FILE)).to.contain('label: Site\n');
    expect(workspaces.find('site')).to.include({ label: 'Site' });
  });

  it('takes no file in a subfolder of a type\'s folder for an entry, at load or from a commit, and lists it as push checks would', async () => {
    const start = await headOid(repo.dir);
    const nested = 'site/entries/posts/drafts/hello.md';
    const added = await commit({ [WORKSPACE_FILE]: 'label: Site\n', [TYPE_FILE]: type('Posts'), [POST]: post('Root'), [nested]: post('Nested') }, 'Add a post and a draft folder');
    await receive(start, added);
    const listed = () => problems.list('site').map(({ path, message }) => [path, message]);
    const stray = [[nested, 'An entry file is {slug}.md or {slug}.{locale}.md directly in entries/{type}/.']];
    expect(title()).to.equal('Root');
    expect(listed()).to.deep.equal(stray);

    const edited = await commit({ [POST]: post('Root, edited'), [nested]: post('Nested, edited') }, 'Edit both');
    await receive(added, edited);
    expect(title()).to.equal('Root, edited');
    expect(listed()).to.deep.equal(stray);

    const reloaded = new ProblemRegister();
    const loaded = new ContentIndex(repo, reloaded.reporter());
    await loaded.loadWorkspace('site');
    expect(loaded.findType('site', 'posts')?.index.all().map((entry) => entry.title)).to.deep.equal(['Root, edited']);
    expect(reloaded.list('site').map(({ path, message }) => [path, message])).to.deep.equal(stray);
  });

  it('logs each file it skips once when a workspace arrives by a commit, with its types or over files it had kept', async () => {
    const badSlug = 'site/entries/posts/Bad_Slug.md';
    const badFrontMatter = 'site/entries/posts/broken.md';
    const skippedPaths = () =>
      logged
        .map((line) => JSON.parse(line) as { level: string; path?: string })
        .filter((line) => line.level === 'error' && line.path !== undefined)
        .map((line) => line.path)
        .sort();
    const start = await headOid(repo.dir);
    const files = { [WORKSPACE_FILE]: 'label: Site\nlabell: typo\n', [TYPE_FILE]: type('Posts'), [POST]: post('Hello'), [badSlug]: post('Bad slug'), [badFrontMatter]: '---\ntitle: [unclosed\n---\n' };
    const added = await commit(files, 'Add the site with files it skips');
    await receive(start, added);
    expect(title()).to.equal('Hello');
    expect(skippedPaths()).to.deep.equal([WORKSPACE_FILE, badSlug, badFrontMatter].sort());
    expect(problems.list('site').map((problem) => problem.path)).to.deep.equal([WORKSPACE_FILE, badSlug, badFrontMatter].sort());

    // Gone with its workspace.yaml, then back with that file alone: the files it kept are read (and logged) once more, once.
    const removed = await externalCommit(repo.dir, { remove: [WORKSPACE_FILE] }, 'Remove the workspace file');
    await receive(added, removed);
    logged.length = 0;
    const back = await commit({ [WORKSPACE_FILE]: files[WORKSPACE_FILE] }, 'Bring the site back');
    await receive(removed, back);
    expect(title()).to.equal('Hello');
    expect(skippedPaths()).to.deep.equal([WORKSPACE_FILE, badSlug, badFrontMatter].sort());
  });

  const pictures = () => media.all('site').map((found) => `${found.filename} ${found.title}`);

  it('keeps answering with a workspace\'s old media records while it reads them again, and swaps the new ones in whole', async () => {
    const start = await headOid(repo.dir);
    const added = await commit({ [WORKSPACE_FILE]: 'label: Site\n', [picture('old.png')]: record('Old', '2026-01-01T00:00:00Z'), [CATEGORIES]: '- news\n' }, 'Add the site');
    await receive(start, added);
    await commit({ [picture('new.png')]: record('New', '2026-02-01T00:00:00Z'), [CATEGORIES]: '- sport\n' }, 'Add a picture');
    // The repo's own files, with each metadata read held until the test lets it go on.
    let reached = () => {};
    const reading = new Promise<void>((resolve) => (reached = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: ContentFiles = {
      readFile: async (file) => {
        reached();
        await released;
        return repo.readFile(file);
      },
      readFiles: repo.readFiles.bind(repo),
      listFileIds: repo.listFileIds.bind(repo),
      readListed: repo.readListed.bind(repo),
      listFiles: repo.listFiles.bind(repo),
      listFilesIn: repo.listFilesIn.bind(repo),
      listFolders: repo.listFolders.bind(repo),
    };
    const loading = media.loadWorkspace('site', held);
    await reading;
    expect(pictures()).to.deep.equal(['old.png Old']);
    expect(media.storedCategories('site')).to.deep.equal(['news']);
    release();
    await loading;
    expect(pictures()).to.deep.equal(['new.png New', 'old.png Old']);
    expect(media.storedCategories('site')).to.deep.equal(['sport']);
  });

  it('drops a workspace\'s media records when a commit removes only its workspace.yaml, and reads them as they are then when it comes back', async () => {
    const start = await headOid(repo.dir);
    const added = await commit({ [WORKSPACE_FILE]: 'label: Site\n', [picture('a.png')]: record('A', '2026-01-01T00:00:00Z'), [CATEGORIES]: '- news\n' }, 'Add the site');
    await receive(start, added);
    expect(pictures()).to.deep.equal(['a.png A']);
    const removed = await externalCommit(repo.dir, { remove: [WORKSPACE_FILE] }, 'Remove the workspace file');
    await receive(added, removed);
    expect(workspaces.find('site')).to.equal(undefined);
    expect(pictures()).to.deep.equal([]);
    expect(media.find('site', 'a.png')).to.equal(undefined);
    expect(media.storedCategories('site')).to.deep.equal([]);
    // Changed while the workspace is gone: nothing reads them until it is back.
    const edited = await commit({ [picture('a.png')]: record('A, edited', '2026-01-01T00:00:00Z'), [picture('b.png')]: record('B', '2026-02-01T00:00:00Z') }, 'Edit the pictures');
    await receive(removed, edited);
    expect(pictures()).to.deep.equal([]);
    const back = await commit({ [WORKSPACE_FILE]: 'label: Site\n' }, 'Bring the site back');
    await receive(edited, back);
    expect(workspaces.find('site')).not.to.equal(undefined);
    expect(pictures()).to.deep.equal(['b.png B', 'a.png A, edited']);
    expect(media.storedCategories('site')).to.deep.equal(['news']);
  });

  it('tells every type and entry of a workspace whose folder a developer removes with git rm -r deleted, as its arrival told them created', async () => {
    const start = await headOid(repo.dir);
    const added = await commit({ [WORKSPACE_FILE]: 'label: Site\n', [TYPE_FILE]: type('Posts'), [POST]: post('Hello') }, 'Add the site');
    await receive(start, added);
    await git(repo.dir, ['rm', '-r', '-q', '--', 'site']);
    await commitByHand(repo.dir, ['-q', '-m', 'Remove the site']);
    told.length = 0;
    await receive(added, await headOid(repo.dir));
    // Listeners hear of a group in later microtasks.
    await new Promise((resolve) => setImmediate(resolve));
    expect(told.map(({ type, workspace, data }) => `${type} ${workspace} ${data.type}/${data.id ?? ''}`).sort()).to.deep.equal([
      'content.deleted site posts/hello-id',
      'content.unpublished site posts/hello-id',
      'schema.deleted site posts/',
    ]);
    expect(workspaces.find('site')).to.equal(undefined);
    expect(content.types('site')).to.deep.equal([]);
  });
});
