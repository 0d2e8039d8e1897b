// What a test process leaves in TMPDIR: nothing of the servers it ran, even
// those it closed keeping their data root or never closed at all.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';

const SERVER_HELPER = path.resolve(import.meta.dirname, '../helpers/server.ts');

describe('temp folders of test servers', () => {
  let tmp: string;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'temp-folders-'));
  });

  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('are gone when the process that started the servers exits', async () => {
    const run = [
      `const { startTestServer } = await import(${JSON.stringify(pathToFileURL(SERVER_HELPER).href)});`,
      `const kept = await startTestServer();`,
      `await kept.close({ keepData: true });`,
      `const reopened = await startTestServer({ dataDir: kept.dataDir });`,
      `await reopened.close({ keepData: true });`,
      `await startTestServer();`,
      `console.log(kept.dataDir);`,
      `process.exit(0);`,
    ].join('\n');
    const output = await runNode(run, tmp);
    expect(output.trim().startsWith(tmp)).to.equal(true);
    expect((await readdir(tmp)).filter((name) => name.startsWith('cms-'))).to.deep.equal([]);
  });
});

async function runNode(code: string, tmp: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (status !== 0) throw new Error(`The child failed (${status}): ${stderr}`);
  return stdout;
}
