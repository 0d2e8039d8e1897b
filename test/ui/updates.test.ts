// The updates screen in Chromium against the real server and an update feed
// served by the test: check, download, install, and the restart notice.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { describeInBrowser, screenshots, withAdminBrowser } from '../helpers/browser.ts';
import { startLocalHttp, type LocalHttpServer } from '../helpers/local-http.ts';
import { buildZip } from '../helpers/zip.ts';

const RELEASE = buildZip([{ name: 'package.json', data: Buffer.from('{ "name": "git-cms", "version": "99.0.0" }\n') }]);

describeInBrowser('updates screen (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  let feed: LocalHttpServer;
  let releasesDir: string;
  // Filled in before the server starts, once the feed has its port.
  const env: Record<string, string> = {};
  const ui = withAdminBrowser({ env });

  before(async () => {
    releasesDir = await mkdtemp(path.join(os.tmpdir(), 'cms-releases-'));
    const feedBody = { version: '99.0.0', url: '/release.zip', sha256: createHash('sha256').update(RELEASE).digest('hex'), notes: 'Faster and friendlier.' };
    feed = await startLocalHttp((request) =>
      request.url === '/feed.json' ? { status: 200, body: JSON.stringify(feedBody) } : request.url === '/release.zip' ? { status: 200, body: RELEASE } : { status: 404, body: '{}' },
    );
    Object.assign(env, { CMS_UPDATE_FEED: `${feed.url}/feed.json`, CMS_RELEASES_DIR: releasesDir });
  });
  after(async () => {
    await feed?.close();
    await rm(releasesDir, { recursive: true, force: true });
  });

  it('checks for, downloads and installs an update, then asks for a restart', async () => {
    await ui.signIn('/admin/updates');
    await ui.page.getByRole('button', { name: 'Check for updates' }).click();
    await ui.page.getByRole('heading', { name: 'What is new in 99.0.0' }).waitFor();
    await ui.page.getByText('Faster and friendlier.').waitFor();
    await ui.page.getByRole('button', { name: 'Download 99.0.0' }).click();
    await ui.page.getByRole('button', { name: 'Install 99.0.0' }).click();
    await ui.page.getByText('Restart the server to run it.').waitFor();
    await screenshots(ui.page, 'updates');
    expect(feed.requests.map((request) => request.url)).to.include.members(['/feed.json', '/release.zip']);
  });
});
