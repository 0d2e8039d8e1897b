// An entry's versions in Chromium against the real server: each says in
// words what happened ("Created", "Updated", "Restored the version of …"),
// by whom and when, rather than the commit subject the server wrote; a
// developer's git commit shows their own message, first line. At 1280 and
// 360 px.
import { expect } from 'chai';
import { describeInBrowser, PHONE, screenshots, withAdminBrowser } from '../helpers/browser.ts';
import { contentRepoOf, externalCommit, fileAt } from '../helpers/git.ts';
import { pollUntil } from '../helpers/poll.ts';

describeInBrowser('versions in words (Chromium)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const ui = withAdminBrowser({ env: { CMS_WATCH_INTERVAL_MS: '200' } });

  it('says what each version did, by whom and when, and keeps a developer\'s own message', async () => {
    expect((await ui.api('POST', '/content-types', { name: 'posts', label: 'Posts', fields: {} })).status).to.equal(201);
    const created = await ui.api('POST', '/content/posts', { title: 'Spring', slug: 'spring' });
    const id = created.body.data.id as string;
    expect((await ui.api('PATCH', `/content/posts/${id}`, { title: 'Spring sale' })).status).to.equal(200);
    const repo = contentRepoOf(ui.run.server.dataDir);
    const file = 'default/entries/posts/spring.md';
    const text = await fileAt(repo, file);
    await externalCommit(repo, { write: { [file]: text.replace('title: Spring sale', 'title: Spring sales') } }, 'Fix the typo in the title\n\nThe editors reported it.');
    await pollUntil(async () => (await ui.api('GET', `/content/posts/${id}`)).body.data.title, (title) => title === 'Spring sales');
    const first = (await ui.api('GET', `/content/posts/${id}/revisions`)).body.data.at(-1);
    expect((await ui.api('POST', `/content/posts/${id}/revisions/${first.id}/restore`)).status).to.equal(200);

    await ui.signIn(`/admin/content/posts/${id}/versions`);
    await ui.page.getByRole('heading', { name: 'Versions of “Spring”' }).waitFor();
    const items = ui.page.locator('.revision-list__item');
    await pollUntil(() => items.count(), (count) => count === 4);
    const read = (position: number, part: string) => items.nth(position).locator(`.revision-list__${part}`).textContent();

    expect(await read(3, 'what')).to.equal('Created');
    const createdWhen = (await read(3, 'who'))!.replace(/^admin · /, '');
    expect(await read(2, 'what')).to.equal('Updated');
    expect(await read(2, 'who')).to.match(/^admin · /);
    expect(await read(1, 'what')).to.equal('Changed with git');
    expect(await read(1, 'who')).to.match(/^dev · /);
    expect(await read(1, 'note'), 'the developer\'s message, first line').to.equal('Fix the typo in the title');
    expect(await read(0, 'what')).to.equal(`Restored the version of ${createdWhen} · current`);
    expect(await items.locator('.revision-list__note').count(), 'only the git commit has a message of its own').to.equal(1);
    const shown = await ui.page.locator('.revision-list').textContent();
    for (const subject of ['Create posts/spring', 'Update posts/spring', 'Restore posts/spring']) expect(shown, subject).to.not.include(subject);

    await ui.page.setViewportSize(PHONE);
    for (let position = 0; position < 4; position += 1) {
      const box = await items.nth(position).boundingBox();
      expect(box!.x + box!.width, `version ${position} ends on screen`).to.be.at.most(PHONE.width);
    }
    expect(await ui.page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling').to.be.at.most(PHONE.width);
    await screenshots(ui.page, 'versions-in-words');
  });
});
