import { expect } from 'chai';
import { createLogger } from '../../src/lib/logger.ts';

describe('logger', () => {
  const linesOf = (log: (logger: ReturnType<typeof createLogger>) => void) => {
    const lines: Record<string, unknown>[] = [];
    log(createLogger('info', (line) => lines.push(JSON.parse(line) as Record<string, unknown>)));
    return lines;
  };

  it('keeps what the line says happened when a detail is called message (a skipped file problem), and the detail as reason', () => {
    const [line] = linesOf((logger) => logger.error('skipped a file that cannot be indexed', { path: 'default/entries/posts/x.md', message: 'The front matter is not YAML.' }));
    expect(line).to.include({ level: 'error', message: 'skipped a file that cannot be indexed', reason: 'The front matter is not YAML.', path: 'default/entries/posts/x.md' });
  });

  it('writes errors as name, message and stack, and no line below its level', () => {
    const lines = linesOf((logger) => logger.error('failed', { error: new TypeError('bad') }));
    expect((lines[0].error as Record<string, unknown>).name).to.equal('TypeError');
    const quiet: string[] = [];
    createLogger('error', (line) => quiet.push(line)).info('not written');
    expect(quiet).to.deep.equal([]);
  });
});
