import { expect } from 'chai';
import { executionAsyncId } from 'node:async_hooks';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Principal } from '../../src/domain/auth/principal.ts';
import { ContentWriter, type ContentTransaction, type EventDraft } from '../../src/domain/content/content-writer.ts';
import { EventBus, type DomainEvent } from '../../src/domain/model/events.ts';
import type { ChangedPath } from '../../src/storage/content-repo.ts';
import { ContentRepo } from '../../src/storage/content-repo.ts';
import { caughtAppError } from '../helpers/errors.ts';
import { commitCount, commitInfo, externalCommit, statusPorcelain } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';

const EDITOR: Principal = { kind: 'user', id: 'u1', username: 'ada', displayName: 'Ada', role: 'editor', grants: [] };
const FILE = 'blog/notes.md';

describe('ContentWriter (the one write path)', () => {
  let dir: string;
  let repo: ContentRepo;
  let told: DomainEvent[];
  let reindexed: ChangedPath[][];
  let writer: ContentWriter;
  let drafts: EventDraft[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'content-writer-'));
    repo = await ContentRepo.open(path.join(dir, 'content'));
    told = [];
    reindexed = [];
    drafts = [{ type: 'content.updated', workspace: 'blog', data: { type: 'notes' } }];
    const events = new EventBus((error) => {
      throw error;
    });
    events.on((event) => {
      told.push(event);
    });
    writer = new ContentWriter(repo, events, async (changes) => {
      reindexed.push(changes);
      return { events: drafts, workspaces: [] };
    });
  });

  afterEach(async () => {
    await repo.close();
    await rm(dir, { recursive: true, force: true });
  });

  const change = (content: string | null, apply?: () => void) => ({
    by: EDITOR,
    message: 'Update notes',
    changes: [{ path: FILE, content }],
    trailers: { Workspace: 'blog' },
    apply,
    events: drafts,
  });

  it('commits with the Actor trailer, then applies, then tells the events with the actor', async () => {
    const order: string[] = [];
    const info = await writer.transaction(async (tx) => {
      const committed = await tx.commit(change('one\n', () => order.push('apply')));
      order.push('committed');
      return committed;
    });
    expect(order).to.deep.equal(['apply', 'committed']);
    const logged = await commitInfo(repo.dir);
    expect(logged.oid).to.equal(info.oid);
    expect(logged.authorName).to.equal('Ada');
    expect(logged.trailers).to.deep.equal({ Workspace: 'blog', Actor: 'u1' });
    await pollUntil(async () => told.length, (count) => count === 1);
    expect(told.map(({ type, workspace, actor, data }) => ({ type, workspace, actor, data }))).to.deep.equal([
      { type: 'content.updated', workspace: 'blog', actor: 'u1', data: { type: 'notes' } },
    ]);
  });

  it('authors the server\'s own changes as the system', async () => {
    await writer.transaction((tx) => tx.commit({ ...change('one\n'), by: 'system' }));
    expect((await commitInfo(repo.dir)).trailers.Actor).to.equal('system');
  });

  it('neither applies nor tells anything when the commit fails, and leaves the repo as it was', async () => {
    let applied = false;
    const error = await caughtAppError(writer.transaction((tx) => tx.commit({ ...change('x'), changes: [{ path: '../outside.md', content: 'x' }], apply: () => (applied = true) })));
    expect(error.code).to.equal('invalid_request');
    expect(applied).to.equal(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(told).to.deep.equal([]);
    expect(await commitCount(repo.dir)).to.equal(1);
    expect(await statusPorcelain(repo.dir)).to.equal('');
  });

  it('runs transactions one at a time, so a check and its commit never interleave', async () => {
    const bump = () =>
      writer.transaction(async (tx) => {
        const current = Number((await repo.readFile(FILE)) ?? '0');
        await new Promise((resolve) => setTimeout(resolve, 5));
        await tx.commit(change(`${current + 1}`));
      });
    await Promise.all(Array.from({ length: 5 }, bump));
    expect(await repo.readFile(FILE)).to.equal('5');
    expect(await commitCount(repo.dir)).to.equal(6);
  });

  it('lets a nested transaction join the one its caller holds instead of deadlocking', async () => {
    await writer.transaction(async (outer) => {
      await outer.commit(change('outer\n'));
      await writer.transaction((inner) => inner.commit(change('inner\n')));
    });
    expect(await repo.readFile(FILE)).to.equal('inner\n');
    expect(await commitCount(repo.dir)).to.equal(3);
  });

  it('tracks the async context only while a transaction runs, so reads between writes pay nothing for it', async () => {
    // With promise hooks on, each await resumes in a new async resource.
    const resumedIds = async () => {
      await null;
      const first = executionAsyncId();
      await null;
      return [first, executionAsyncId()];
    };
    await writer.transaction(async (tx) => {
      const [first, second] = await resumedIds();
      expect(first).to.not.equal(second);
      await tx.commit(change('tracked\n'));
    });
    const [first, second] = await resumedIds();
    expect(first).to.equal(second);
  });

  it('refuses a commit through a transaction that has ended, and two commits of one transaction at once', async () => {
    let kept: ContentTransaction | undefined;
    await writer.transaction(async (tx) => {
      kept = tx;
    });
    expect((await caughtAppError(kept!.commit(change('late\n')))).code).to.equal('internal_error');
    const [first, second] = await writer.transaction((tx) => Promise.allSettled([tx.commit(change('a\n')), tx.commit(change('b\n'))]));
    expect(first.status).to.equal('fulfilled');
    expect(second.status === 'rejected' && second.reason.code).to.equal('internal_error');
    expect(await repo.readFile(FILE)).to.equal('a\n');
  });

  it('queues a write started by an event listener behind the transaction that told it', async () => {
    const steps: string[] = [];
    const events = new EventBus((error) => {
      throw error;
    });
    const chained = new ContentWriter(repo, events, async () => ({ events: [], workspaces: [] }));
    let listenerWrite: Promise<unknown> | undefined;
    events.on(() => {
      listenerWrite ??= chained.transaction(async (tx) => {
        steps.push('listener');
        await tx.commit({ ...change('listener\n'), events: [] });
      });
    });
    await chained.transaction(async (tx) => {
      await tx.commit(change('first\n'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      steps.push('outer done');
    });
    await pollUntil(async () => steps.length, (count) => count === 2);
    await listenerWrite;
    expect(steps).to.deep.equal(['outer done', 'listener']);
  });

  it('re-reads a commit made with reread instead of applying it, and tells what it found without an actor', async () => {
    const info = await writer.transaction((tx) => tx.commit({ ...change('restored\n'), apply: undefined, events: undefined, reread: true }));
    expect(reindexed).to.deep.equal([[{ path: FILE, change: 'added' }]]);
    expect(info.parents).to.have.length(1);
    await pollUntil(async () => told.length, (count) => count === 1);
    expect(told[0].actor).to.equal(undefined);
  });

  it('receives commits made outside the server through a transaction and tells what they changed', async () => {
    const received: string[][] = [];
    const stop = writer.onExternalCommits(async (tx, from, to) => {
      received.push((await tx.receiveCommits(from, to)).map((changed) => changed.path));
    }, 10);
    try {
      await externalCommit(repo.dir, { write: { [FILE]: 'from git\n' } }, 'Edit notes by hand');
      await pollUntil(async () => received.length, (count) => count === 1);
    } finally {
      stop();
    }
    expect(received).to.deep.equal([[FILE]]);
    expect(reindexed).to.have.length(1);
    await pollUntil(async () => told.length, (count) => count === 1);
    expect(told[0]).to.include({ type: 'content.updated', workspace: 'blog', actor: undefined });
  });
});
