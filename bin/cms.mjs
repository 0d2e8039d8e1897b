#!/usr/bin/env node
// Runs the compiled CLI (dist/server, built by `npm run build`, which
// `npm install` runs); stack traces point into the TypeScript sources.
import { existsSync } from 'node:fs';

process.setSourceMapsEnabled(true);
const cli = new URL('../dist/server/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('git-cms is not built yet: run `npm run build` (npm install does it too).\n');
  process.exit(1);
}
const { runCli } = await import(cli.href);
await runCli(process.argv.slice(2));
