// The activity log's empty states in Chromium against the real server: a log
// with nothing recorded says what will show up there; a filter that lets
// nothing through says so and clears the filters in one click.
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describeInBrowser, screenshots, withAdminBrowser } from '../helpers/browser.ts';

describeInBrowser('activity log when nothing shows (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser();

  beforeEach(() => ui.signIn());


  it('says no activity is recorded yet, and what will show up', async () => {
    // Setup and the sign-in are records of their own: empty the log by hand, as after clearing it on the server.
    await writeFile(path.join(ui.run.server.dataDir, 'state', 'activity.jsonl'), '');
    expect((await ui.api('GET', '/activity')).body.meta.total).to.equal(0);
    await ui.open('/admin/activity');
    const empty = ui.page.getByRole('region', { name: 'No activity yet' });
    await empty.waitFor();
    expect(await empty.innerText()).to.match(/show up here/);
    expect(await ui.page.getByRole('button', { name: 'Clear the filters' }).count()).to.equal(0);
    expect(await ui.page.getByText('0 records').count()).to.equal(0);
  });

  it('says nothing matches the filters and clears them', async () => {
    expect((await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: {} })).status).to.equal(201);
    await ui.open('/admin/activity?type=schema&until=2000-01-01');
    const empty = ui.page.getByRole('region', { name: 'No activity matches these filters' });
    await empty.waitFor();
    expect(await ui.page.getByText('0 records').count()).to.equal(0);
    await screenshots(ui.page, 'activity-no-match');
    await empty.getByRole('button', { name: 'Clear the filters' }).click();
    await ui.page.getByRole('cell', { name: 'Created the content type "posts".' }).waitFor();
    expect(new URL(ui.page.url()).search).to.equal('');
    expect(await ui.page.getByLabel('What').inputValue()).to.equal('');
    expect(await ui.page.getByLabel('Until').inputValue()).to.equal('');
    expect(await empty.count()).to.equal(0);
  });
});
