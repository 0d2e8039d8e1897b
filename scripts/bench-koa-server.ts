// The baseline of `npm run bench`: a bare Koa 3 app with one @koa/router route
// per case, each returning a fixed JSON document (parsed once, serialized by
// Koa on every request, as any handler does). It runs in its own process, like
// the CMS, so the load generator never shares its event loop.
// Run: node --import tsx scripts/bench-koa-server.ts <bodies.json>
// where bodies.json maps a case name to the JSON body to return.
import { readFile } from 'node:fs/promises';
import Router from '@koa/router';
import Koa from 'koa';

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('Usage: bench-koa-server.ts <bodies.json>');
  const bodies = new Map(Object.entries(JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>));
  const app = new Koa();
  const router = new Router();
  router.get('/fixed/:name', (ctx) => {
    if (!bodies.has(ctx.params.name)) return;
    ctx.body = bodies.get(ctx.params.name);
  });
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('The baseline server has no TCP address.');
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

await main();
