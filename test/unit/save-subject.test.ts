// The commit subject of a single-entry save (src/domain/entries/save-subject.ts):
// it says what the save did to who can see the entry, judged at the time of
// the write, so a publish reads `Publish` in git and in the versions list.
import { expect } from 'chai';
import { saveSubject } from '../../src/domain/entries/save-subject.ts';
import type { EntryStatus } from '../../src/domain/model/entry.ts';
import { buildEntry } from './query-fixtures.ts';

const NOW = Date.parse('2026-11-27T09:00:00.000Z');
const PAST = '2026-11-26T09:00:00.000Z';
const FUTURE = '2026-11-28T09:00:00.000Z';
const entry = (status: EntryStatus, published_at: string | null = null) => buildEntry('posts', { id: 'e1', slug: 'hello', title: 'Hello', status, published_at });

describe('the commit subject of an entry save', () => {
  it('says a create published or scheduled the entry at once', () => {
    expect(saveSubject(undefined, entry('draft'), NOW)).to.equal('Create posts/hello');
    expect(saveSubject(undefined, entry('published', PAST), NOW)).to.equal('Create and publish posts/hello');
    expect(saveSubject(undefined, entry('scheduled', FUTURE), NOW)).to.equal('Create and schedule posts/hello');
    expect(saveSubject(undefined, entry('protected'), NOW)).to.equal('Create posts/hello');
  });

  it('says Publish when a save makes the entry public, Unpublish when it takes it off', () => {
    expect(saveSubject(entry('draft'), entry('published', PAST), NOW)).to.equal('Publish posts/hello');
    expect(saveSubject(entry('archived'), entry('published', PAST), NOW)).to.equal('Publish posts/hello');
    expect(saveSubject(entry('published', PAST), entry('draft', PAST), NOW)).to.equal('Unpublish posts/hello');
    expect(saveSubject(entry('published', PAST), entry('protected', PAST), NOW)).to.equal('Unpublish posts/hello');
    expect(saveSubject(entry('published', PAST), entry('scheduled', FUTURE), NOW), 'off the site until its date').to.equal('Unpublish posts/hello');
  });

  it('judges a scheduled entry by its date: one whose date has passed is public', () => {
    expect(saveSubject(entry('draft'), entry('scheduled', PAST), NOW)).to.equal('Publish posts/hello');
    expect(saveSubject(entry('scheduled', PAST), entry('published', PAST), NOW), 'already public').to.equal('Update posts/hello');
    expect(saveSubject(entry('scheduled', PAST), entry('draft', PAST), NOW)).to.equal('Unpublish posts/hello');
  });

  it('says Publish for a save that keeps public a scheduled entry whose going public nobody announced yet', () => {
    const notYet = () => false;
    expect(saveSubject(entry('scheduled', PAST), entry('published', PAST), NOW, notYet)).to.equal('Publish posts/hello');
    expect(saveSubject(entry('scheduled', PAST), { ...entry('scheduled', PAST), title: 'Edited' }, NOW, notYet)).to.equal('Publish posts/hello');
    expect(saveSubject(entry('scheduled', PAST), entry('draft', PAST), NOW, notYet), 'never told, so nothing to take back').to.equal('Update posts/hello');
  });

  it('says Schedule when a save schedules the entry or moves its date', () => {
    expect(saveSubject(entry('draft'), entry('scheduled', FUTURE), NOW)).to.equal('Schedule posts/hello');
    expect(saveSubject(entry('scheduled', FUTURE), entry('scheduled', '2026-12-01T09:00:00.000Z'), NOW)).to.equal('Schedule posts/hello');
    expect(saveSubject(entry('scheduled', FUTURE), entry('scheduled', FUTURE), NOW), 'an edit of a scheduled entry').to.equal('Update posts/hello');
  });

  it('says Update for a save that leaves who can see the entry as it was', () => {
    expect(saveSubject(entry('draft'), entry('draft'), NOW)).to.equal('Update posts/hello');
    expect(saveSubject(entry('published', PAST), entry('published', FUTURE), NOW)).to.equal('Update posts/hello');
    expect(saveSubject(entry('draft'), entry('archived'), NOW)).to.equal('Update posts/hello');
  });

  it('names the entry by its slug after the save', () => {
    expect(saveSubject(entry('draft'), { ...entry('published', PAST), slug: 'renamed' }, NOW)).to.equal('Publish posts/renamed');
  });
});
