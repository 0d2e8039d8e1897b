import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isAppError } from '../../src/errors/app-error.ts';
import { compileBody } from '../../src/http/validate.ts';

const API_DIR = fileURLToPath(new URL('../../src/api/', import.meta.url));

function schemaFiles(): string[] {
  return readdirSync(API_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.schemas.ts'))
    .map((file) => path.join(API_DIR, file));
}

// Schemas are compiled by the first body they check (not at start), so a
// schema ajv's strict mode refuses would only show on that route's first request.
describe('request body schemas', () => {
  it('every exported schema compiles under the validator\'s strict settings', async () => {
    let checked = 0;
    for (const file of schemaFiles()) {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, schema] of Object.entries(module)) {
        if (!name.endsWith('Schema')) continue;
        const parse = compileBody(schema as never);
        try {
          parse({});
        } catch (error) {
          expect(isAppError(error) && error.code === 'validation_failed', `${path.basename(file)} ${name}: ${String(error)}`).to.equal(true);
        }
        checked += 1;
      }
    }
    expect(checked).to.be.at.least(20);
  });
});
