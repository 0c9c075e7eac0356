// A deployment that fails stops the run loudly: the banner names the question and says what
// went wrong, what was received is kept (and downloadable as a capture), and resume asks only
// for the rest. Uses small fake deployments on 127.0.0.1; no refsearch, no CLI.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import {
  missing, appHarness, openApp, setField, readGroupTable, fakeDeployment, searchBody,
} from './support.mjs';

const skip = missing() || false;
const h = appHarness(skip);

const DATASET = {
  corpus_id: 'demo',
  items: ['one', 'two', 'three', 'four', 'five'].map((w, i) => ({
    question: `Which figure is number ${w}?`, expected_pages: [i + 1], figure_ref: `Figure ${i + 1}`,
    kind: i % 2 ? 'content' : 'locate', tags: ['figure'],
  })),
};

async function prepare(page, baseUrl, { timeout = '5', concurrency = '1', retries = '0' } = {}) {
  await setField(page, 'dataset-input', JSON.stringify(DATASET));
  await page.waitForSelector('[data-testid=dataset-status]');
  await setField(page, 'base-url', baseUrl);
  await setField(page, 'timeout', timeout);
  await setField(page, 'concurrency', concurrency);
  await setField(page, 'retries', retries);
}

async function bannerText(page) {
  const banner = page.locator('[data-testid=error-banner]');
  await banner.waitFor({ timeout: 30_000 });
  return banner.textContent();
}

const good = (body, page = 1) => ({ status: 200, body: searchBody(body.query, [[page, page]]) });

test('a 500 stops the run with the status, the body and the question; resume asks only for the rest', { skip }, async () => {
  let healthy = false;
  const dep = await fakeDeployment((n, body) => (n === 3 && !healthy
    ? { status: 500, body: `boom: the index is gone ${'x'.repeat(600)}`, contentType: 'text/plain' }
    : good(body, DATASET.items.findIndex((it) => it.question === body.query) + 1)));
  try {
    const page = await openApp(h.browser, h.site.url, { acceptDownloads: true });
    await prepare(page, dep.url);
    await page.click('[data-testid=run-live]');
    const text = await bannerText(page);
    assert.match(text, /The live run stopped/);
    assert.ok(text.includes('"Which figure is number three?"'), text);
    assert.match(text, /HTTP 500/);
    assert.ok(text.includes('boom: the index is gone'), 'the body is quoted');
    assert.ok(!text.includes('x'.repeat(500)), 'at most 500 characters of the body');
    assert.match(text, /What was received is kept/);
    const progress = page.locator('[data-testid=progress]');
    assert.equal(await progress.getAttribute('data-done'), '2');
    assert.equal(await progress.getAttribute('data-total'), '5');

    // The request body is exactly the four keys.
    assert.deepEqual(Object.keys(dep.asked[0]), ['query', 'repo_id', 'top_k', 'cache_mode']);
    assert.deepEqual(dep.asked[0], { query: DATASET.items[0].question, repo_id: 'demo', top_k: 5, cache_mode: 'bypass' });

    // What was received is downloadable as a capture of envelopes.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=download-capture]'),
    ]);
    const lines = readFileSync(await download.path(), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.question), DATASET.items.slice(0, 2).map((it) => it.question));
    assert.deepEqual(lines[0].request, { base_url: dep.url, top_k: 5, cache_mode: 'bypass' });
    assert.equal(lines[0].response.query, DATASET.items[0].question);

    // Resume asks only for the items not answered yet.
    healthy = true;
    const askedBefore = dep.asked.length;
    await page.click('[data-testid=resume-run]');
    const table = await readGroupTable(page);
    assert.equal(table.overall.n.text, '5');
    assert.equal(table.overall.page_hit_at_3.text, '1.0000 (5/5; 95% CI 0.57–1.00)');
    assert.deepEqual(dep.asked.slice(askedBefore).map((b) => b.query).sort(),
      DATASET.items.slice(2).map((it) => it.question).sort());
    assert.equal(await page.locator('[data-testid=error-banner]').count(), 0, 'the banner is gone');
    await page.context().close();
  } finally {
    await dep.stop();
  }
});

for (const [what, reply, expected] of [
  ['a body that is not JSON', () => ({ status: 200, body: '<html>proxy error</html>', contentType: 'text/html' }), /the response is not JSON/],
  ['a body without matches', () => ({ status: 200, body: { detail: 'no index', results: [] } }), /no `matches` array \(its keys: detail, results\)/],
  ['a match that is not an object', (n, b) => ({ status: 200, body: { query: b.query, matches: [{}, 'oops'] } }), /the match at rank 2 is a string, not a JSON object/],
  ['a 404 with a JSON detail', () => ({ status: 404, body: { detail: 'unknown corpus demo' } }), /HTTP 404[^]*unknown corpus demo/],
]) {
  test(`${what} stops the run and says so`, { skip }, async () => {
    const dep = await fakeDeployment(reply);
    try {
      const page = await openApp(h.browser, h.site.url);
      await prepare(page, dep.url);
      await page.click('[data-testid=run-live]');
      const text = await bannerText(page);
      assert.match(text, expected);
      assert.ok(text.includes('"Which figure is number one?"'), text);
      assert.equal(await page.locator('[data-testid=report-view]').count(), 0, 'no report: a failure is never a miss');
      await page.context().close();
    } finally {
      await dep.stop();
    }
  });
}

test('a deployment that does not answer in time times out', { skip }, async () => {
  const dep = await fakeDeployment(() => ({ status: 200, body: {} }));
  // Swap in a server that never answers searches.
  const hang = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type', 'access-control-allow-methods': 'POST' });
      res.end();
    }
  });
  await new Promise((r) => hang.listen(0, '127.0.0.1', r));
  try {
    const page = await openApp(h.browser, h.site.url);
    await prepare(page, `http://127.0.0.1:${hang.address().port}/api`, { timeout: '0.5' });
    await page.click('[data-testid=run-live]');
    assert.match(await bannerText(page), /no response from .* within 0\.5 s/);
    await page.context().close();
  } finally {
    hang.closeAllConnections();
    await new Promise((r) => hang.close(r));
    await dep.stop();
  }
});

test('an unreachable deployment is a loud failure, retried first', { skip }, async () => {
  const dep = await fakeDeployment(() => ({ status: 200, body: {} }));
  const url = dep.url;
  await dep.stop(); // nothing listens there any more
  const page = await openApp(h.browser, h.site.url);
  await prepare(page, url, { retries: '1' });
  await page.click('[data-testid=run-live]');
  const text = await bannerText(page);
  assert.match(text, /could not reach .*: is the deployment running at that address\?/);
  assert.doesNotMatch(text, /CORS/, 'nothing answers there: not a CORS problem');
  assert.match(text, /serve this page from the deployment's own origin .* `figeval run` .* score it here/);
  assert.match(await page.locator('[data-testid=progress]').textContent(), /1 retried/);
  await page.context().close();
});

test('a deployment that runs but sends no CORS header for this page is told apart from one that is down', { skip }, async () => {
  // Up, answering every request, but with no Access-Control-Allow-Origin.
  const closed = createServer((req, res) => {
    req.resume();
    req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"matches": []}'); });
  });
  await new Promise((r) => closed.listen(0, '127.0.0.1', r));
  try {
    const page = await openApp(h.browser, h.site.url);
    const url = `http://127.0.0.1:${closed.address().port}/api`;
    await prepare(page, url, { retries: '0' });
    await page.click('[data-testid=run-live]');
    const text = await bannerText(page);
    const origin = new URL(h.site.url).origin;
    assert.ok(text.includes(`${url}/search is running, but does not answer this page (CORS): the deployment must send the header Access-Control-Allow-Origin: ${origin}`), text);
    assert.doesNotMatch(text, /could not reach/);
    assert.match(text, /serve this page from the deployment's own origin .* `figeval run` .* score it here/);
    await page.context().close();
  } finally {
    closed.closeAllConnections();
    await new Promise((r) => closed.close(r));
  }
});
