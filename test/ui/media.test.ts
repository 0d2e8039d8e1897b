// The media library and the media field's picker in Chromium against the
// real server: three images dropped at once (one over the size limit shows
// its error while the others arrive), a new category and a move into it, a
// file made private (its public URL refused), and an image picked for an
// entry's media field.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describeInBrowser, screenshots, withAdminBrowser, type BrowserRun } from '../helpers/browser.ts';
import { makePng } from '../api/media-fixtures.ts';
import { pollUntil } from '../helpers/poll.ts';

const UPLOAD_LIMIT = 20_000;

/** Drops files on the upload zone as a user dragging them from the desktop would. */
async function dropFiles(page: Page, files: { name: string; bytes: Buffer }[]): Promise<void> {
  const transfer = await page.evaluateHandle((list: { name: string; base64: string }[]) => {
    const data = new DataTransfer();
    for (const { name, base64 } of list) data.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: 'image/png' }));
    return data;
  }, files.map(({ name, bytes }) => ({ name, base64: bytes.toString('base64') })));
  await page.locator('.upload__zone').dispatchEvent('drop', { dataTransfer: transfer });
}

describeInBrowser('media library (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser({ env: { CMS_MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT), CMS_EVENTS_HEARTBEAT_MS: '200' } });

  const files = async () => (await ui.api('GET', '/media')).body.data as { filename: string; category: string; visibility: string }[];

  it('uploads dropped images with their own progress and errors, sorts them into a category and makes one private', async () => {
    const small = await makePng(40, 30);
    const noise = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
    expect(noise.length).to.be.greaterThan(UPLOAD_LIMIT);
    await ui.signIn('/admin/media');
    await ui.page.getByRole('heading', { name: 'No files yet' }).waitFor();

    await dropFiles(ui.page, [
      { name: 'sunrise.png', bytes: small },
      { name: 'huge.png', bytes: noise },
      { name: 'sunset.png', bytes: small },
    ]);
    await ui.page.getByRole('alert').filter({ hasText: 'Too large' }).waitFor();
    await ui.page.getByRole('button', { name: 'Open sunset.png' }).waitFor();
    await ui.page.getByRole('button', { name: 'Open sunrise.png' }).waitFor();
    expect((await files()).map((file) => file.filename).sort()).to.deep.equal(['sunrise.png', 'sunset.png']);
    await screenshots(ui.page, 'media');

    await ui.page.getByText(/^Categories/).click();
    await ui.page.getByLabel('New category').fill('Holidays');
    await ui.page.getByRole('button', { name: 'Create', exact: true }).click();
    await ui.page.getByRole('button', { name: 'Rename Holidays' }).waitFor();
    await ui.page.getByLabel('Select sunset.png').check();
    await ui.page.getByRole('region', { name: 'Selected files' }).getByRole('combobox').selectOption('Holidays');
    await ui.page.getByRole('button', { name: 'Move', exact: true }).click();
    await ui.page.getByText('Saved.', { exact: true }).waitFor();
    expect((await files()).find((file) => file.filename === 'sunset.png')?.category).to.equal('Holidays');

    await ui.page.getByLabel('Category', { exact: true }).selectOption('Holidays');
    await ui.page.waitForURL(/category=Holidays/);
    await ui.page.getByRole('button', { name: 'Open sunrise.png' }).waitFor({ state: 'detached' });

    await ui.page.getByRole('button', { name: 'Open sunset.png' }).click();
    const details = ui.page.getByRole('dialog', { name: 'sunset.png' });
    await details.getByLabel('Alt text').fill('The sun going down');
    await details.getByRole('button', { name: 'Save alt text and title' }).click();
    await ui.page.getByText('Saved.', { exact: true }).first().waitFor();
    await details.getByLabel('Who can open the file URL').selectOption('private');
    await pollPrivate(ui.run, 'sunset.png');
    await pollUntil(() => details.getByLabel('Who can open the file URL').inputValue(), (value) => value === 'private');
    await screenshots(ui.page, 'media-details');
    const anonymous = await fetch(`${ui.run.server.baseUrl}/media/default/sunset.png`);
    expect(anonymous.status).to.be.oneOf([401, 403, 404]);
    const stored = (await files()).find((file) => file.filename === 'sunset.png');
    expect(stored).to.deep.include({ visibility: 'private', alt: 'The sun going down' });
  });

  it('picks an image for an entry\'s media field, uploading it from the picker', async () => {
    expect((await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: { cover: { type: 'media', label: 'Cover' } } })).status).to.equal(201);
    await ui.signIn('/admin/content/posts/new');
    await ui.page.getByLabel('Title (required)').fill('With a cover');
    await ui.page.getByRole('button', { name: 'Choose a file' }).click();
    const picker = ui.page.getByRole('dialog', { name: 'Choose a file for Cover' });
    await picker.getByRole('heading', { name: 'No files yet' }).waitFor();
    await dropFiles(ui.page, [{ name: 'cover.png', bytes: await makePng(64, 48) }]);
    await picker.getByRole('button', { name: 'Choose cover.png' }).waitFor();
    expect(await picker.getByRole('button', { name: 'Choose cover.png' }).getAttribute('aria-pressed'), 'an upload from the picker is chosen').to.equal('true');
    await screenshots(ui.page, 'media-picker');
    await picker.getByRole('button', { name: 'Use this file' }).click();
    await ui.page.getByRole('group', { name: 'Cover' }).getByText('cover.png').waitFor();
    await ui.page.getByRole('button', { name: 'Create' }).click();
    await ui.page.getByText('Saved.', { exact: true }).waitFor();
    const [entry] = (await ui.api('GET', '/content/posts')).body.data;
    expect(entry.data.cover).to.deep.equal(['cover.png']);
  });
});

async function pollPrivate(run: BrowserRun, filename: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await fetch(`${run.server.baseUrl}/media/default/${filename}`);
    if (response.status !== 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${filename} is still public`);
}
