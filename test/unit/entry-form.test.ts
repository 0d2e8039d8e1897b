// The admin app's write bodies (src/admin-ui/screens/entry/entry-form.ts):
// an input the editor emptied must reach the server as a cleared value.
import { expect } from 'chai';
import type { ContentType } from '../../src/admin-ui/api/types.ts';
import { bodyOf, changedKeys, valuesOf, withValue } from '../../src/admin-ui/screens/entry/entry-form.ts';

const EVENTS: ContentType = {
  name: 'events', label: 'Events', icon: 'file', singleton: false, visibility: 'public', slug_field: 'slug', slug_source: 'title', locales: [], default_locale: '',
  fields: { day: { type: 'date' }, seats: { type: 'number' }, kind: { type: 'select', options: ['talk'] }, cover: { type: 'media' } },
};

describe('entry form bodies (admin app)', () => {
  it('sends null for a number or date box the editor emptied, so the update clears the field', () => {
    const loaded = valuesOf({
      id: 'e1', slug: 'e', type: 'events', status: 'draft', title: 'E', published_at: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z',
      data: { day: '2026-05-01', seats: 40, kind: 'talk', cover: ['a.png'] },
    });
    // The date and number inputs hold undefined once emptied (basic-inputs.tsx); the select null; the media input [].
    const edited = [['data.day', undefined], ['data.seats', undefined], ['data.kind', null], ['data.cover', []]]
      .reduce((values, [key, value]) => withValue(values, key as string, value), loaded);
    const body = bodyOf(edited, changedKeys(EVENTS, loaded, edited), undefined);
    expect(JSON.parse(JSON.stringify(body))).to.deep.equal({ day: null, seats: null, kind: null, cover: [] });
  });
});
