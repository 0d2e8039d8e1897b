// The heap growth a started server sets (lib/heap-growth.ts): 40 % once the
// content is loaded, unless whoever started node chose a growth themselves.
import { expect } from 'chai';
import { heapGrowthFlag } from '../../src/lib/heap-growth.ts';

describe('heap growth after start', () => {
  it('is limited to 40 % when node was started without a growth of its own', () => {
    expect(heapGrowthFlag(['--enable-source-maps', '--max-semi-space-size=8'], '--require ./x.cjs')).to.equal('--heap-growing-percent=40');
    expect(heapGrowthFlag([])).to.equal('--heap-growing-percent=40');
  });

  it('is left alone when the command line or NODE_OPTIONS set one', () => {
    expect(heapGrowthFlag(['--heap-growing-percent=25'])).to.equal(undefined);
    expect(heapGrowthFlag([], '--max-old-space-size=512 --heap-growing-percent=60')).to.equal(undefined);
    expect(heapGrowthFlag(['--heap_growing_percent=50'])).to.equal(undefined);
  });
});
