import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

// What the server's modules load before their first answer is start-up time
// (docs/performance.md, "Cold start"); these CommonJS libraries load with the
// first request that needs them.
const LOADED_ON_FIRST_USE = ['ajv', 'gray-matter', 'js-yaml', 'sanitize-html', 'yaml'];

describe('start-up loads', () => {
  it('leaves the libraries only some requests need unloaded until then', async () => {
    const script = `
      await import('./src/services.ts');
      await import('./src/app.ts');
      const { createRequire } = await import('node:module');
      const files = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(${JSON.stringify(LOADED_ON_FIRST_USE)}.filter((name) => files.some((file) => file.includes('/node_modules/' + name + '/')))));
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root });
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '')).to.deep.equal([]);
  });
});
