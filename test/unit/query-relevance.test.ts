import { expect } from 'chai';
import fc from 'fast-check';
import { rankWindow } from '../../src/domain/query/relevance.ts';

describe('rankWindow', () => {
  it('cuts the page out of the full ranking (score descending, id ascending on ties)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0.5, 1, 1.25, 2, 3), { maxLength: 80 }), fc.nat(90), fc.integer({ min: 1, max: 90 }), (scores, offset, limit) => {
        const slots = scores.map((_, i) => (i * 37) % 101);
        const idOf = (slot: number) => `id-${String(100 - slot).padStart(3, '0')}`;
        const full = slots
          .map((slot, i) => ({ slot, score: scores[i] }))
          .sort((a, b) => b.score - a.score || (idOf(a.slot) < idOf(b.slot) ? -1 : 1))
          .map((hit) => hit.slot);
        expect(rankWindow(slots, scores, idOf, offset, offset + limit)).to.deep.equal(full.slice(offset, offset + limit));
        expect(rankWindow(slots, scores, idOf, offset, Number.POSITIVE_INFINITY)).to.deep.equal(full.slice(offset));
      }),
      { numRuns: 500 },
    );
  });
});
