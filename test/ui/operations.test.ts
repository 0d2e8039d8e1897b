// The administration screens that run the site, in Chromium against the real
// server: a webhook pointing at a receiver started here (a test delivery and
// its line in the log), a backup made, an entry deleted and restored from it,
// workspaces created, renamed, archived and brought back, the activity log's
// filters, the dashboard (scheduled entries, a file from git that was
// skipped), and the profile picture.
import { expect } from 'chai';
import { makePng } from '../api/media-fixtures.ts';
import { describeInBrowser, screenshots, withAdminBrowser } from '../helpers/browser.ts';
import { contentRepoOf, externalCommit } from '../helpers/git.ts';
import { startLocalHttp, type LocalHttpServer } from '../helpers/local-http.ts';
import { pollUntil } from '../helpers/poll.ts';

describeInBrowser('administration screens (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser({ env: { CMS_EVENTS_HEARTBEAT_MS: '200', CMS_WATCH_INTERVAL_MS: '200' } });

  beforeEach(async () => {
    expect((await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: {} })).status).to.equal(201);
    await ui.signIn();
  });


  it('creates a webhook (batched: one event per commit), sends it a test delivery and shows the delivery in the log', async () => {
    const receiver: LocalHttpServer = await startLocalHttp();
    try {
      await ui.open('/admin/webhooks');
      await ui.page.getByRole('heading', { name: 'No webhooks yet' }).waitFor();
      await ui.page.getByRole('button', { name: 'New webhook' }).first().click();
      const dialog = ui.page.getByRole('dialog', { name: 'New webhook' });
      await dialog.getByLabel('URL (required)').fill(`${receiver.url}/hook`);
      await dialog.getByLabel('content.created').check();
      await dialog.getByLabel('One event per commit (content.batch)').check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await ui.page.getByRole('cell', { name: `${receiver.url}/hook`, exact: true }).waitFor();
      await ui.page.getByRole('button', { name: `Send a test to ${receiver.url}/hook` }).click();
      await pollUntil(async () => receiver.requests.length, (count) => count === 1);
      expect(receiver.requests[0].headers['x-service-event']).to.equal('webhook.test');
      await pollUntil(
        async () => {
          await ui.page.getByRole('button', { name: 'Refresh' }).click();
          return ui.page.getByRole('cell', { name: 'Delivered (200)' }).count();
        },
        (count) => count === 1,
      );
      await screenshots(ui.page, 'webhooks');
      const stored = (await ui.api('GET', '/webhooks')).body.data;
      expect(stored[0]).to.include({ url: `${receiver.url}/hook`, enabled: true, batch: true });
      expect(stored[0].events).to.have.members(['content.published', 'content.created']);
      await ui.page.getByRole('cell', { name: 'On, batched' }).waitFor();
      await ui.page.getByRole('button', { name: `Edit ${receiver.url}/hook` }).click();
      const editing = ui.page.getByRole('dialog', { name: 'Edit webhook' });
      expect(await editing.getByLabel('One event per commit (content.batch)').isChecked()).to.equal(true);
      await screenshots(ui.page, 'webhook-dialog');
      await editing.getByLabel('One event per commit (content.batch)').uncheck();
      await editing.getByRole('button', { name: 'Save' }).click();
      await ui.page.getByRole('cell', { name: 'On', exact: true }).waitFor();
      expect((await ui.api('GET', '/webhooks')).body.data[0]).to.include({ batch: false });
    } finally {
      await receiver.close();
    }
  });

  it('makes a backup and restores an entry deleted since', async () => {
    const created = await ui.api('POST', '/content/posts', { title: 'Precious', status: 'published' });
    expect(created.status).to.equal(201);
    await ui.open('/admin/backups');
    await ui.page.getByRole('button', { name: 'Make the backup' }).click();
    await ui.page.getByText('Backup made.').waitFor();
    const backups = (await ui.api('GET', '/backups')).body.data;
    expect(backups).to.have.length(1);
    await ui.page.getByRole('cell', { name: backups[0].name, exact: true }).waitFor();
    expect((await ui.api('DELETE', `/content/posts/${created.body.data.id}`)).status).to.equal(200);
    await ui.api('DELETE', `/trash/posts/${created.body.data.id}`);

    await ui.page.getByRole('button', { name: `Restore from ${backups[0].name}` }).click();
    const dialog = ui.page.getByRole('dialog', { name: `Restore from ${backups[0].name}` });
    await dialog.getByLabel('Entries (1)').waitFor();
    await screenshots(ui.page, 'backups-restore');
    await dialog.getByRole('button', { name: /^Restore \d+ parts?$/ }).click();
    await dialog.getByRole('list', { name: 'What the restore did' }).waitFor();
    expect((await ui.api('GET', `/content/posts/${created.body.data.id}`)).body.data.title).to.equal('Precious');
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  it('creates, renames, archives and brings back a workspace', async () => {
    await ui.open('/admin/workspaces');
    await ui.page.getByLabel('Name (required)').fill('Company blog');
    expect(await ui.page.getByLabel('Slug (required)').inputValue()).to.equal('company-blog');
    await ui.page.getByRole('button', { name: 'Create the workspace' }).click();
    await ui.page.getByRole('cell', { name: 'company-blog' }).waitFor();
    await ui.page.getByRole('button', { name: 'Rename Company blog' }).click();
    await ui.page.getByLabel('New name of company-blog').fill('Blog');
    await ui.page.getByRole('button', { name: 'Save', exact: true }).click();
    await ui.page.getByRole('button', { name: 'Archive Blog' }).click();
    await ui.page.getByRole('dialog').getByRole('button', { name: 'Archive the workspace' }).click();
    await ui.page.getByRole('button', { name: 'Bring back Blog' }).waitFor();
    await screenshots(ui.page, 'workspaces');
    const archived = (await ui.api('GET', '/workspaces?include_archived=true')).body.data.find((workspace: { slug: string }) => workspace.slug === 'company-blog');
    expect(archived).to.include({ label: 'Blog', archived: true });
    await ui.page.getByRole('button', { name: 'Bring back Blog' }).click();
    await ui.page.getByRole('button', { name: 'Archive Blog' }).waitFor();
  });

  it('filters the activity log, and shows scheduled entries and skipped files on the dashboard', async () => {
    const soon = new Date(Date.now() + 3600_000).toISOString();
    expect((await ui.api('POST', '/content/posts', { title: 'Coming soon', status: 'scheduled', published_at: soon })).status).to.equal(201);
    await externalCommit(contentRepoOf(ui.run.server.dataDir), { write: { 'default/entries/posts/broken.md': '---\ntitle: [unclosed\n---\n' } }, 'Add a broken file');
    await pollUntil(() => ui.api('GET', '/activity?type=content.file_skipped'), (response) => response.body.meta.total > 0);
    await ui.open('/admin');
    const skipped = ui.page.getByRole('region', { name: 'Files from git that were skipped' });
    await skipped.getByText('default/entries/posts/broken.md').waitFor();
    await ui.page.getByRole('region', { name: 'Scheduled' }).getByRole('link', { name: 'Coming soon' }).waitFor();
    await screenshots(ui.page, 'dashboard');

    await ui.open('/admin/activity');
    await ui.page.getByLabel('What').selectOption('schema');
    await ui.page.waitForURL(/type=schema/);
    await ui.page.getByText('1 record', { exact: true }).waitFor();
    await ui.page.getByRole('cell', { name: 'Created the content type "posts".' }).waitFor();
    expect(await ui.page.getByRole('cell', { name: /Coming soon|coming-soon/ }).count(), 'entries filtered out').to.equal(0);
    await ui.page.getByLabel('What').selectOption('');
    await ui.page.getByLabel('Until').fill('2000-01-01');
    await ui.page.getByRole('region', { name: 'No activity matches these filters' }).waitFor();
    await screenshots(ui.page, 'activity');
  });

  it('uploads and removes a profile picture', async () => {
    await ui.open('/admin/profile');
    await ui.page.getByLabel('Upload a picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await makePng(64, 64) });
    await ui.page.getByRole('button', { name: 'Remove the picture' }).waitFor();
    expect((await ui.api('GET', '/me')).body.data.avatar_url).to.be.a('string');
    await ui.page.getByRole('button', { name: 'Remove the picture' }).click();
    await ui.page.getByRole('button', { name: 'Remove the picture' }).waitFor({ state: 'detached' });
    expect((await ui.api('GET', '/me')).body.data.avatar_url).to.equal(null);
  });
});
