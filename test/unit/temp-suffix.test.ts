// Temp file names: unique within a process and in the shape the clean-up
// code recognises (a killed process's leftovers are found by these patterns).
import { expect } from 'chai';
import { tempSuffix } from '../../src/lib/temp-suffix.ts';
import { isAtomicWriteTemp } from '../../src/storage/atomic-write.ts';
import { GIT_TEMP_FILE } from '../../src/storage/git/refs.ts';

describe('temp file suffixes', () => {
  it('are twelve hex digits, different on every call', () => {
    const suffixes = Array.from({ length: 10_000 }, () => tempSuffix());
    expect(suffixes.every((suffix) => /^[0-9a-f]{12}$/.test(suffix))).to.equal(true);
    expect(new Set(suffixes).size).to.equal(suffixes.length);
  });

  it('make names the clean-up of atomic writes and of .git temp files recognises', () => {
    expect(isAtomicWriteTemp(`.post.md.${tempSuffix()}.tmp`)).to.equal(true);
    expect(GIT_TEMP_FILE.test(`cms-${tempSuffix()}.tmp`)).to.equal(true);
  });
});
