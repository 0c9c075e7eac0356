// A live run through the team server's proxy (contract §15.7): served by `figeval serve
// --deployments FILE`, the workbench offers the deployments it names; a run through one asks
// `POST api/deployments/NAME/search` on the page's own origin (never the deployment's URL), shows
// what `figeval run` against the deployment itself prints, and the header value the server adds
// reaches the deployment but never the page or the server's log. A deployment that cannot be
// reached stops the run with the server's words.
//
// Needs FIGEVAL_BIN (figeval serve, figeval run) and REFSEARCH_BIN.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, loadBundled, readGroupTable, assertTableMatchesReport,
  figevalReport, startRefsearch, startServe, scratch, showView,
} from './support.mjs';

const skip = missing({ figeval: true, refsearch: true, manual: true }) || false;
const h = appHarness(skip);
const tmp = skip ? null : scratch();
after(() => tmp?.remove());
const SECRET = 'proxy-secret-7c1f9a';

test('served with --deployments, the page runs live through the server\'s proxy and shows what figeval run prints; the header value stays on the server', { skip, timeout: 600_000 }, async () => {
  const dep = await startRefsearch();
  const deployments = tmp.file('deployments.json', JSON.stringify({
    deployments: [
      { name: 'octave', base_url: dep.url, headers: { 'X-Figeval-Proof': '{{env.PROXY_SECRET}}' } },
      // Nothing listens on port 9 of 127.0.0.1 (discard, never started here).
      { name: 'gone', base_url: 'http://127.0.0.1:9/api', connector: 'ragweld', timeout_s: 5 },
    ],
  }));
  const server = await startServe(['--deployments', deployments], { env: { PROXY_SECRET: SECRET } });
  try {
    const cli = await figevalReport(['run', '--base-url', dep.url, '--dataset', OCTAVE_DATASET]);
    const page = await openApp(h.browser, server.url);
    const asked = [];
    page.on('request', (r) => { if (r.method() === 'POST') asked.push(r.url()); });
    await showView(page, 'workbench');
    await loadBundled(page, 'octave-manual-figures');
    const proxy = page.locator('[data-testid=deployment-proxy]');
    await proxy.waitFor();
    assert.deepEqual(await proxy.locator('option').allTextContents(),
      ['— none: the base URL, asked from this browser', 'octave (ragweld)', 'gone (ragweld)']);
    await proxy.selectOption('octave');
    assert.equal(await page.locator('[data-testid=base-url]').inputValue(), `${server.url}api/deployments/octave`);

    await page.click('[data-testid=run-live]');
    const table = await readGroupTable(page);
    assertTableMatchesReport(assert, table, cli);
    assert.equal(asked.length, 33, 'one search per question');
    assert.ok(asked.every((u) => u === `${server.url}api/deployments/octave/search`), asked.find((u) => !u.endsWith('/octave/search')));
    assert.ok(!(await page.content()).includes(SECRET), 'the header value is not in the page');
    assert.ok(!server.log().includes(SECRET), 'nor in the server\'s log');
    assert.match(server.log(), /POST \/api\/deployments\/octave\/search 200/);

    // A deployment that cannot be reached: the run stops with the server's words, no URL named.
    await showView(page, 'workbench');
    await proxy.selectOption('gone');
    await page.fill('[data-testid=retries]', '0');
    await page.click('[data-testid=run-live]');
    await page.waitForFunction(() => /cannot reach/.test(document.querySelector('[data-testid=error-banner]')?.textContent ?? ''),
      null, { timeout: 60_000 });
    const words = await page.locator('[data-testid=error-banner]').textContent();
    assert.match(words, /cannot reach the deployment gone/, words);
    assert.ok(!words.includes('127.0.0.1:9'), words);
    await page.context().close();
  } finally {
    await server.stop();
    await dep.stop();
  }
});
