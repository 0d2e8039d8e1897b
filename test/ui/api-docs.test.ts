// The API reference page renders the OpenAPI document in a real browser,
// under its Content-Security-Policy, with nothing loaded from elsewhere.
import { expect } from 'chai';
import { describeInBrowser, startBrowserRun, type BrowserRun } from '../helpers/browser.ts';

describeInBrowser('API reference page (Chromium)', () => {
  let run: BrowserRun;

  before(async () => {
    run = await startBrowserRun();
  });

  after(() => run?.close());

  afterEach(() => run.assertNoConsoleErrors());

  it('renders every operation of /api/v1/openapi.json from this origin only', async () => {
    const page = await run.newPage();
    const origins = new Set<string>();
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    await page.goto(`${run.server.baseUrl}/api/docs`);
    await page.locator('.opblock-summary-path', { hasText: '/api/v1/workspaces/{ws}/content/{type}' }).first().waitFor();
    const document = (await run.server.request('GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).reduce((count, methods) => count + Object.keys(methods).length, 0);
    expect(await page.locator('.opblock').count()).to.equal(operations);
    expect([...origins]).to.deep.equal([run.server.baseUrl]);
  });

  it('shows one workspace\'s typed document with ?workspace=', async () => {
    const page = await run.newPage();
    await page.goto(`${run.server.baseUrl}/api/docs?workspace=default`);
    await page.locator('.title', { hasText: 'one workspace' }).first().waitFor();
  });
});
