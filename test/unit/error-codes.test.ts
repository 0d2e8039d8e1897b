import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { ERROR_CODES } from '../../src/errors/error-codes.ts';
import { STATUS_BY_CODE } from '../../src/http/error-handler.ts';

describe('error codes', () => {
  it('every code is documented in the README with its status', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const missing = ERROR_CODES.filter((code) => !readme.includes(`| ${STATUS_BY_CODE[code]} | \`${code}\` |`));
    expect(missing).to.deep.equal([]);
  });
});
