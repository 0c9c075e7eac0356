// The Runs view (web/runs, contract §10.1 and §15.5). Without a server — the built page on a
// static host — it lists the reports made or opened in this browser (IndexedDB, the last 50),
// which a reload keeps and a click deletes, and nothing is uploaded. Served by `figeval serve`,
// it lists the stored runs newest first, a page at a time, filtered by dataset, corpus and
// label, with one dataset's trend (each point's interval a whisker); picked runs open in the
// Compare view by their `#runs=` link, a run in the report view by its `#run=` link, and the
// short links `/r/ID` and `/c/A,B` land on the same views. Names and labels with markup are
// text.
//
// Needs FIGEVAL_BIN (figeval serve, figeval score).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, NASA_DATASET, missing, appHarness, openApp, showView, loadBundled, setField, missEvery,
  scratch, figevalReport, startServe, pushRun, linkReport, axeViolations, markContrasts, intervalData,
} from './support.mjs';

const skip = missing({ figeval: true }) || false;
const h = appHarness(skip);
const OCTAVE = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));
const NASA = JSON.parse(readFileSync(NASA_DATASET, 'utf8'));
const tmp = skip ? null : scratch();
after(() => tmp?.remove());

/** The report `figeval score` writes for `dataset` answered on its pages but every `every`-th. */
async function scored(dataset, file, every) {
  const responses = tmp.file(`${dataset.corpus_id}-${every}.jsonl`, missEvery(dataset, every));
  return figevalReport(['score', '--responses', responses, '--dataset', file]);
}

/** The rows of a list of the Runs view: [id, name, page hit @3 cell]. */
const rows = (page, list) => page.locator(`[data-testid=${list}] [data-testid=history-row]`).evaluateAll((rs) => rs.map((r) => [
  r.dataset.id, r.querySelector('[data-testid=history-open]').textContent, r.querySelector('[data-testid=history-headline]').textContent]));

/** Opens the Runs view and waits for its list `list` to have `n` rows. */
async function runsView(page, list, n) {
  await showView(page, 'runs');
  await page.waitForFunction(([l, k]) => document.querySelectorAll(`[data-testid=${l}] [data-testid=history-row]`).length === k,
    [list, n], { timeout: 30_000 });
}

/** Scores a capture of the Octave dataset in the page; resolves the report its share link holds. */
async function scoreHere(page, every) {
  await showView(page, 'workbench');
  await setField(page, 'responses-input', missEvery(OCTAVE, every));
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=share-link]');
  return linkReport(await page.locator('[data-testid=share-link]').inputValue());
}

test('without a server, the Runs view lists the reports kept in this browser: a reload keeps them, Delete forgets one, nothing is uploaded', { skip, timeout: 180_000 }, async () => {
  const page = await openApp(h.browser, h.site.url);
  const sent = [];
  // A request with a body (anything but GET: the page's own files, and the workbench asking the
  // default deployment what it serves) would be an upload.
  page.on('request', (r) => { if (r.method() !== 'GET' || r.postData() !== null) sent.push(`${r.method()} ${r.url()}`); });
  await loadBundled(page, 'octave-manual-figures');
  const first = await scoreHere(page, 3);
  const second = await scoreHere(page, 7);
  await runsView(page, 'history-kept', 2);
  assert.match(await page.textContent('[data-testid=history-source]'), /not served by figeval serve.*Nothing is uploaded/);
  assert.equal(await page.locator('[data-testid=history-stored]').count(), 0, 'no stored runs without a server');
  const kept = await rows(page, 'history-kept');
  assert.deepEqual(kept.map((r) => r[2].split(' ')[0]), [second.page_hit_at_3.toFixed(4), first.page_hit_at_3.toFixed(4)], 'newest first');
  assert.deepEqual(await axeViolations(page), [], 'axe on the Runs view');

  // One dataset: its trend, oldest first, each whisker its report's interval.
  const key = await page.locator('[data-testid=history-kept] [data-testid=history-row]').first().getAttribute('data-dataset');
  await page.selectOption('[data-testid=history-filter-dataset]', key);
  await page.waitForSelector('[data-testid=history-trend-point]');
  const points = await page.locator('[data-testid=history-trend-point]').evaluateAll((ps) => ps.map((p) => [p.dataset.value, p.dataset.ci]));
  assert.deepEqual(points, [first, second].map((r) => [r.page_hit_at_3.toFixed(4), intervalData(r.page_hit_at_3_ci)]));
  const chart = await page.getByRole('img', { name: /^page hit @3 over 2 runs of dataset / }).getAttribute('aria-label');
  assert.ok(chart.includes(`${first.page_hit_at_3.toFixed(4)} (${first.page_hit_at_3_hits}/33; 95% CI`), chart);
  for (const m of await markContrasts(page)) assert.ok(m.ratio >= 3, `${m.chart} ${m.mark}: ${m.ratio}:1 against its track`);
  await page.selectOption('[data-testid=history-trend-metric]', 'page_mrr');
  await page.waitForFunction(() => /^MRR over 2 runs/.test(document.querySelector('[data-testid=history-trend-chart]')?.getAttribute('aria-label')));
  assert.deepEqual(await axeViolations(page), [], 'axe on the trend');

  // A reload loses nothing.
  await page.reload();
  await runsView(page, 'history-kept', 2);
  assert.deepEqual(await rows(page, 'history-kept'), kept);

  // Two picked open in the Compare view, the first picked the baseline.
  await page.locator('[data-testid=history-kept] [data-testid=history-pick]').nth(1).check();
  await page.locator('[data-testid=history-kept] [data-testid=history-pick]').nth(0).check();
  await page.click('[data-testid=history-compare]');
  await page.waitForSelector('[data-testid=comparison]');
  assert.equal(await page.getAttribute('[data-testid=tab-compare]', 'aria-current'), 'page');
  const slots = await page.locator('[data-testid=compare-before-name], [data-testid=compare-after-name]').allTextContents();
  assert.match(slots[0], new RegExp(`page_hit_at_3 ${first.page_hit_at_3.toFixed(4)}`), 'the first picked is the baseline');
  assert.match(slots[1], new RegExp(`page_hit_at_3 ${second.page_hit_at_3.toFixed(4)}`));

  // A kept run opens in the report view.
  await runsView(page, 'history-kept', 2);
  await page.locator('[data-testid=history-kept] [data-testid=history-open]').nth(1).click();
  await page.waitForSelector('[data-testid=report-view]');
  assert.equal(await page.locator('[data-testid=headline] .headline-value').textContent(), first.page_hit_at_3.toFixed(4));

  // Opened again, it is the newest kept; Delete forgets the other, and a reload does not bring
  // it back.
  await runsView(page, 'history-kept', 2);
  await page.waitForFunction((id) => document.querySelector('[data-testid=history-kept] [data-testid=history-row]').dataset.id === id, kept[1][0]);
  await page.locator('[data-testid=history-kept] [data-testid=history-delete]').nth(1).click();
  await runsView(page, 'history-kept', 1);
  await page.reload();
  await runsView(page, 'history-kept', 1);
  assert.equal((await rows(page, 'history-kept'))[0][2].split(' ')[0], first.page_hit_at_3.toFixed(4));
  assert.deepEqual(sent, [], 'nothing was uploaded');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('served by figeval serve, the Runs view lists the stored runs newest first, filters them, pages them, opens and compares them; markup in names and labels is text', { skip, timeout: 240_000 }, async () => {
  const server = await startServe();
  try {
    const octave3 = await scored(OCTAVE, OCTAVE_DATASET, 3);
    const octave7 = await scored(OCTAVE, OCTAVE_DATASET, 7);
    const nasa = await scored(NASA, NASA_DATASET, 4);
    const base = await pushRun(server.url, { report: octave3, name: '<b>base</b>',
      labels: { branch: 'main', note: '<img src=x onerror="window.__pwned=1">' } });
    const change = await pushRun(server.url, { report: octave7, name: 'reranker on', labels: { branch: 'feature' } });
    const other = await pushRun(server.url, { report: nasa, name: 'apollo', labels: { branch: 'main' } });

    const page = await openApp(h.browser, server.url);
    await runsView(page, 'history-stored', 3);
    assert.match(await page.textContent('[data-testid=history-source]'), /Stored by the figeval server that serves this page \(open on this machine/);
    const listed = await rows(page, 'history-stored');
    assert.deepEqual(listed.map((r) => r[0]), [other.id, change.id, base.id], 'newest first');
    assert.equal(listed[2][1], '<b>base</b>', 'a name with markup is its text');
    const baseRow = page.locator(`[data-testid=history-row][data-id="${base.id}"]`);
    assert.equal(await baseRow.locator('b, img').count(), 0, 'no markup became an element');
    assert.deepEqual(await baseRow.locator('.tag').allTextContents(), ['branch=main', 'note=<img src=x onerror="window.__pwned=1">']);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(await axeViolations(page), [], 'axe on the stored runs');

    // Filters: a label, a corpus, a dataset (with its trend).
    await page.fill('[data-testid=history-filter-label]', 'branch:main');
    await page.click('[data-testid=history-apply]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-stored] [data-testid=history-row]').length === 2);
    assert.deepEqual((await rows(page, 'history-stored')).map((r) => r[0]), [other.id, base.id]);
    await page.fill('[data-testid=history-filter-label]', '');
    await page.fill('[data-testid=history-filter-corpus]', 'nasa-apollo-11');
    await page.click('[data-testid=history-apply]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-stored] [data-testid=history-row]').length === 1);
    await page.fill('[data-testid=history-filter-corpus]', '');
    await page.click('[data-testid=history-apply]');
    await runsView(page, 'history-stored', 3);
    await page.locator(`[data-testid=history-row][data-id="${base.id}"] [data-testid=history-dataset]`).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-stored] [data-testid=history-row]').length === 2);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-trend-point]').length === 2);
    const points = await page.locator('[data-testid=history-trend-point]').evaluateAll((ps) => ps.map((p) => p.dataset.ci));
    assert.deepEqual(points, [octave3, octave7].map((r) => intervalData(r.page_hit_at_3_ci)), 'oldest first');

    // Two picked open in the Compare view by their #runs= link, the first picked the baseline.
    await page.locator(`[data-testid=history-row][data-id="${base.id}"] [data-testid=history-pick]`).check();
    await page.locator(`[data-testid=history-row][data-id="${change.id}"] [data-testid=history-pick]`).check();
    await page.click('[data-testid=history-compare]');
    await page.waitForSelector('[data-testid=comparison]');
    assert.equal(new URL(page.url()).hash, `#runs=${base.id},${change.id}`);
    assert.match(await page.textContent('[data-testid=compare-before-name] strong'), /^<b>base<\/b>$/);
    assert.equal(await page.textContent('[data-testid=compare-after-name] strong'), 'reranker on');

    // A run opens in the report view by its #run= link, its id and labels among the facts.
    await showView(page, 'runs');
    await page.locator(`[data-testid=history-row][data-id="${base.id}"] [data-testid=history-open]`).click();
    await page.waitForSelector('[data-testid=report-view]');
    assert.equal(new URL(page.url()).hash, `#run=${base.id}`);
    const facts = await page.textContent('[data-testid=report-facts]');
    assert.ok(facts.includes(`stored run${base.id}`) && facts.includes('labelsbranch=main, note=<img src=x onerror="window.__pwned=1">'), facts);
    assert.equal(await page.locator('[data-testid=report-facts] img').count(), 0);
    assert.equal(await page.locator('[data-testid=headline] .headline-value').textContent(), octave3.page_hit_at_3.toFixed(4));
    assert.deepEqual(page.problems, []);
    await page.context().close();

    // The short links land on the same views; an unknown id says so in words.
    const short = await openApp(h.browser, base.url);
    await short.waitForSelector('[data-testid=group-table]');
    assert.equal(new URL(short.url()).hash, `#run=${base.id}`);
    await short.goto(`${server.url}c/${base.id},${change.id}`);
    await short.waitForSelector('[data-testid=comparison]');
    assert.equal(new URL(short.url()).hash, `#runs=${base.id},${change.id}`);
    await short.goto(`${server.url}#run=AAAAAAAAAAAAAAAAAAAAAA`);
    await short.reload();
    const banner = short.locator('[data-testid=error-banner]');
    await banner.waitFor();
    assert.match(await banner.textContent(), /This run cannot be opened.*no run has the id "AAAAAAAAAAAAAAAAAAAAAA"/);
    await short.goto(`${server.url}#runs=${base.id}`);
    await short.reload();
    await short.locator('[data-testid=error-banner]').waitFor();
    assert.match(await short.textContent('[data-testid=error-banner]'), /a #runs= link names at least 2 runs, this one 1/);
    await short.context().close();

    // A page at a time: 58 runs are 50 and 8.
    await Promise.all(Array.from({ length: 55 }, (_, i) => pushRun(server.url, { report: octave7, name: `run ${i}` })));
    const paged = await openApp(h.browser, server.url);
    await runsView(paged, 'history-stored', 50);
    assert.equal(await paged.isDisabled('[data-testid=history-newer]'), true);
    await paged.click('[data-testid=history-older]');
    await runsView(paged, 'history-stored', 8);
    assert.equal(await paged.isDisabled('[data-testid=history-older]'), true);
    assert.equal((await rows(paged, 'history-stored')).at(-1)[0], base.id, 'the oldest last');
    await paged.click('[data-testid=history-newer]');
    await runsView(paged, 'history-stored', 50);
    assert.deepEqual(paged.problems, []);
    await paged.context().close();
  } finally {
    await server.stop();
  }
});
