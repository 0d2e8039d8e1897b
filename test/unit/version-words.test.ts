// The admin app's words for a saved version (src/admin-ui/screens/versions/
// version-words.ts): the server's own subjects become what happened, a
// developer's git commit keeps its message, an unknown subject says so.
import { expect } from 'chai';
import { versionWords, type WhenOf } from '../../src/admin-ui/screens/versions/version-words.ts';

const byAda = (message: string) => ({ message, author_id: 'user:u1', author_name: 'Ada' });
const noDates: WhenOf = () => undefined;
const what = (message: string, whenOf = noDates) => versionWords(byAda(message), whenOf).what;

describe('version words (admin app)', () => {
  it('says what the server\'s own commits did', () => {
    expect(what('Create posts/hello-world')).to.equal('Created');
    expect(what('Update posts/hello-world')).to.equal('Updated');
    expect(what('Delete posts/hello-world')).to.equal('Moved to the trash');
    expect(what('Delete de translation of posts/hello-world')).to.equal('Deleted the de translation');
    expect(what('Restore posts/hello-world from trash')).to.equal('Restored from the trash');
    expect(what('Update type posts: hello-world becomes the single page')).to.equal('Became the single page');
    expect(what('Update type posts')).to.equal('Changed with its content type');
    expect(what('Rename media old.png to new.png')).to.equal('File old.png renamed to new.png');
    expect(what('Restore backup backup-2026-11-27')).to.equal('Restored from a backup');
  });

  it('says when a save published, unpublished or scheduled the entry', () => {
    expect(what('Create and publish posts/hello-world')).to.equal('Created and published');
    expect(what('Create and schedule posts/hello-world')).to.equal('Created and scheduled');
    expect(what('Publish posts/hello-world')).to.equal('Published');
    expect(what('Unpublish posts/hello-world')).to.equal('Unpublished');
    expect(what('Schedule posts/hello-world')).to.equal('Scheduled');
  });

  it('tells the scheduler\'s publication from an editor\'s by its author, the server itself', () => {
    const bySystem = (message: string) => versionWords({ message, author_id: 'system', author_name: 'git-cms' }, noDates);
    expect(bySystem('Publish posts/hello-world')).to.deep.equal({ what: 'Published at its scheduled time', who: 'Automatically' });
    expect(bySystem('Publish 4 scheduled entries')).to.deep.equal({ what: 'Published at its scheduled time', who: 'Automatically' });
    expect(versionWords(byAda('Publish posts/hello-world'), noDates)).to.deep.equal({ what: 'Published', who: 'Ada' });
  });

  it('counts the other entries of a bulk change', () => {
    expect(what('Update 1 entry in posts')).to.equal('Updated');
    expect(what('Update 2 entries in posts')).to.equal('Updated with 1 other entry');
    expect(what('Update 12 entries in posts')).to.equal('Updated with 11 other entries');
    expect(what('Publish 1 entry in posts')).to.equal('Published');
    expect(what('Publish 3 entries in posts')).to.equal('Published with 2 other entries');
    expect(what('Unpublish 2 entries in posts')).to.equal('Unpublished with 1 other entry');
    expect(what('Schedule 3 entries in posts')).to.equal('Scheduled with 2 other entries');
    expect(what('Delete 1 entry from posts')).to.equal('Moved to the trash');
    expect(what('Delete 3 entries from posts')).to.equal('Moved to the trash with 2 other entries');
  });

  it('dates a restore by the version it went back to when that version is listed', () => {
    const whenOf: WhenOf = (short) => (short === 'abc1234' ? '27 Nov 2026, 08:10' : undefined);
    expect(what('Restore posts/hello-world to revision abc1234', whenOf)).to.equal('Restored the version of 27 Nov 2026, 08:10');
    expect(what('Restore posts/hello-world to revision def5678', whenOf)).to.equal('Restored an earlier version');
  });

  it('reads only the first line of a message, and needs the whole of it to match', () => {
    expect(what('Update posts/hello-world\n\nWorkspace: default')).to.equal('Updated');
    expect(what('Update posts/hello-world and fix the typo')).to.equal('Changed');
  });

  it('shows a developer\'s git commit as they wrote it, first line only', () => {
    const words = versionWords({ message: 'Fix the typo in the intro\n\nReported by the editors.', author_id: null, author_name: 'Dev' }, noDates);
    expect(words).to.deep.equal({ what: 'Changed with git', who: 'Dev', note: 'Fix the typo in the intro' });
    // Even one that looks like the server's: git wrote it, not the server.
    expect(versionWords({ message: 'Update posts/hello', author_id: null, author_name: 'Dev' }, noDates)).to.include({ what: 'Changed with git', note: 'Update posts/hello' });
  });

  it('says "Changed" with the subject beside it for a server subject it does not know', () => {
    expect(versionWords(byAda('Reticulate posts/hello'), noDates)).to.deep.equal({ what: 'Changed', who: 'Ada', note: 'Reticulate posts/hello' });
  });

  it('names the scheduler "Automatically", people by their name', () => {
    expect(versionWords({ message: 'Publish posts/hello', author_id: 'system', author_name: 'git-cms' }, noDates).who).to.equal('Automatically');
    expect(versionWords(byAda('Create posts/hello'), noDates).who).to.equal('Ada');
  });
});
