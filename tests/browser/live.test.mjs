// Live runs from the page against the reference deployment (refsearch over the Octave manual):
// the page shows the numbers `figeval run` prints against the same deployment; cancel stops
// the requests in flight and resume completes the capture.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, loadBundled, setField, readGroupTable,
  assertTableMatchesReport, figevalReport, startRefsearch, scratch,
} from './support.mjs';

const skip = missing({ figeval: true, refsearch: true }) || false;
const h = appHarness(skip);
let tmp;

before(async () => {
  if (skip) return;
  tmp = scratch();
});
after(async () => {
  tmp?.remove();
});

async function runInPage(baseUrl, { topK = '5', cacheMode = 'bypass', concurrency = '4' } = {}) {
  const page = await openApp(h.browser, h.site.url, { acceptDownloads: true });
  await loadBundled(page, 'octave-manual-figures');
  await setField(page, 'base-url', baseUrl);
  await setField(page, 'top-k', topK);
  await page.selectOption('[data-testid=cache-mode]', cacheMode);
  await setField(page, 'concurrency', concurrency);
  // Every search the page sends, and every one that has settled (answered, failed or aborted):
  // when the two are equal nothing is in flight, so nothing more can arrive.
  page.searches = { sent: 0, settled: 0 };
  const isSearch = (r) => new URL(r.url()).pathname.endsWith('/search');
  page.on('request', (r) => { if (isSearch(r)) page.searches.sent += 1; });
  for (const done of ['requestfinished', 'requestfailed']) {
    page.on(done, (r) => { if (isSearch(r)) page.searches.settled += 1; });
  }
  await page.click('[data-testid=run-live]');
  return page;
}

/** Resolves once `condition()` holds, polling; rejects after `ms`. */
async function until(condition, what, ms = 30_000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (const chunking of ['page', 'section']) {
  test(`a live run shows the numbers figeval run prints (${chunking} chunking)`, { skip, timeout: 600_000 }, async () => {
    const dep = await startRefsearch(['--chunking', chunking]);
    try {
      const cli = await figevalReport(['run', '--base-url', dep.url, '--dataset', OCTAVE_DATASET, '--top-k', '8']);
      const page = await runInPage(dep.url, { topK: '8' });
      const table = await readGroupTable(page);
      assertTableMatchesReport(assert, table, cli);
      const facts = await page.locator('[data-testid=report-facts]').textContent();
      assert.ok(facts.includes(dep.url), 'the report names the deployment');
      // The capture the page kept scores to the same report with the CLI.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('[data-testid=download-report-capture]'),
      ]);
      const capture = tmp.file(`live-${chunking}.jsonl`, readFileSync(await download.path(), 'utf8'));
      const rescored = await figevalReport(['score', '--responses', capture, '--dataset', OCTAVE_DATASET]);
      assertTableMatchesReport(assert, table, rescored);
      assert.equal(rescored.base_url, dep.url);
      assert.equal(rescored.top_k, 8);
      const [reportDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.click('[data-testid=download-report]'),
      ]);
      const report = JSON.parse(readFileSync(await reportDownload.path(), 'utf8'));
      assert.deepEqual(report.per_item, cli.per_item, 'the downloaded report has the CLI\'s per-item records');
      assert.equal(report.run.source, 'live');
      assert.deepEqual(page.problems, []);
      await page.context().close();
    } finally {
      await dep.stop();
    }
  });
}

test('cancel stops the run and aborts what is in flight; resume completes it', { skip, timeout: 600_000 }, async () => {
  const dep = await startRefsearch(['--latency-ms', '300']);
  try {
    const page = await runInPage(dep.url, { concurrency: '2' });
    const progress = page.locator('[data-testid=progress]');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=progress]').dataset.done) >= 4);
    await page.click('[data-testid=cancel-run]');
    assert.equal(await progress.getAttribute('data-status'), 'cancelled');
    const doneAtCancel = Number(await progress.getAttribute('data-done'));
    const total = Number(await progress.getAttribute('data-total'));
    assert.ok(doneAtCancel < total, `${doneAtCancel} of ${total}`);
    const sentAtCancel = page.searches.sent;
    // The signal: every search sent has settled (the ones in flight were aborted).
    await until(() => page.searches.settled === page.searches.sent, 'the searches in flight to settle');
    // And the app has run what those answers queued (a frame, then its tasks).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    assert.equal(page.searches.sent, sentAtCancel, 'no search is sent after cancel');
    assert.equal(Number(await progress.getAttribute('data-done')), doneAtCancel, 'no answer after cancel');
    assert.equal(await page.locator('[data-testid=cancel-run]').isDisabled(), true);
    assert.equal(await page.locator('[data-testid=report-view]').count(), 0);
    assert.match(await page.locator('[data-testid=resume-run]').textContent(), new RegExp(`Resume \\(${total - doneAtCancel} left\\)`));

    await page.click('[data-testid=resume-run]');
    const table = await readGroupTable(page);
    assert.equal(Number(table.overall.n.text), total);
    const cli = await figevalReport(['run', '--base-url', dep.url, '--dataset', OCTAVE_DATASET, '--concurrency', '8']);
    assertTableMatchesReport(assert, table, cli);
    await page.context().close();
  } finally {
    await dep.stop();
  }
});
