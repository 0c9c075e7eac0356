// A new user's first minutes: the demo's link with its PDF and the dataset check, a first live
// run with the page's defaults against the demo's refsearch, a capture scored against the wrong
// dataset, and the banner's words for a deployment's JSON error, a damaged link and a dataset
// dropped where a report belongs.
//
// Needs FIGEVAL_BIN, REFSEARCH_BIN and the Octave manual for the first two tests.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import path from 'node:path';
import {
  missing, appHarness, openApp, serveDist, scratch, startRefsearch, fakeDeployment, figevalReport,
  missEvery, setField, loadBundled, showDocument, axeViolations, OCTAVE_PDF, OCTAVE_DATASET,
} from './support.mjs';

const skip = missing() || false;
const skipLive = missing({ figeval: true, refsearch: true }) || false;
const h = appHarness(skip);
const OCTAVE = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));

let dir, files;
before(async () => {
  if (skip) return;
  dir = scratch();
  if (!skipLive) {
    symlinkSync(path.resolve(OCTAVE_PDF), path.join(dir.dir, 'octave.pdf'));
    files = await serveDist(dir.dir); // another origin, with CORS, as a host of the manual
  }
});
after(async () => {
  await files?.stop();
  dir?.remove();
});

const reportLink = (url, report, pdf) =>
  `${url}#report=${deflateRawSync(Buffer.from(JSON.stringify(report))).toString('base64url')}&pdf=${encodeURIComponent(pdf)}`;

async function bannerText(page) {
  const banner = page.locator('[data-testid=error-banner]');
  await banner.waitFor({ timeout: 30_000 });
  return banner.locator('.banner-detail').first().textContent();
}

test('the demo link\'s dataset check reads the open report\'s items, says so, and finds nothing wrong', { skip: skipLive }, async () => {
  // The Octave report, as the demo makes it (every item answered on its page but every fourth).
  const capture = dir.file('octave.jsonl', missEvery(OCTAVE, 4));
  const report = await figevalReport(['score', '--responses', capture, '--dataset', OCTAVE_DATASET]);
  const page = await openApp(h.browser, reportLink(h.site.url, report, `${files.url}octave.pdf`));
  await page.waitForSelector('[data-testid=report-view]');
  await page.click('[data-testid=pdf-offer-load]');
  // The report stays on show; the check is in the Document view, marked once the PDF is open.
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  assert.equal(await page.getAttribute('[data-testid=tab-report]', 'aria-current'), 'page');
  assert.match(await page.textContent('[data-testid=tab-document]'), /^Document$/);
  assert.equal(await page.$eval('[data-testid=tab-document]', (b) => getComputedStyle(b, '::after').content), '" ●" / ""');
  await showDocument(page);
  await page.waitForSelector('[data-testid=ground-panel][data-status=checked]', { timeout: 180_000 });
  assert.equal(await page.locator('[data-testid=ground-row][data-verdict=absent]').count(), 0, 'no false finding');
  assert.match(await page.textContent('[data-testid=ground-status]'), /^No findings: every checked item of the 33/);
  // The report is named by its run (`figeval score` names it after its capture and the time).
  assert.equal(await page.textContent('[data-testid=ground-checked]'),
    `Checked: the items of the report on show (${report.run.name}, corpus octave-manual, 33 items).`);
  assert.equal(await page.locator('[data-testid=ground-corpus-note]').count(), 0);

  // The workbench's dataset (NASA Apollo 11, the page's start dataset: nothing serves a corpus
  // here) is checked only from the workbench, and with a word about its other corpus.
  await page.click('[data-testid=tab-workbench]');
  await showDocument(page);
  await page.waitForSelector('[data-testid=ground-corpus-note]', { timeout: 30_000 });
  assert.match(await page.textContent('[data-testid=ground-checked]'), /the dataset in Run & score \(bundled: nasa-apollo-11-figures\.json, corpus nasa-apollo-11, 25 items\)/);
  assert.match(await page.textContent('[data-testid=ground-corpus-note]'), /for nasa-apollo-11, but the report open in this page is for octave-manual/);
  assert.deepEqual(await axeViolations(page), []);

  // The Compare view's baseline, which the runs module announces (web/runs).
  await page.click('[data-testid=tab-report]');
  await page.click('[data-testid=compare-as-before]');
  await page.waitForSelector('[data-testid=compare-before-name]');
  await showDocument(page);
  await page.waitForFunction(() => /baseline/.test(document.querySelector('[data-testid=ground-checked]')?.textContent), null, { timeout: 60_000 });
  assert.equal(await page.textContent('[data-testid=ground-checked]'),
    `Checked: the items of the baseline report of the comparison (${report.run.name}, corpus octave-manual, 33 items).`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a first live run with the page\'s defaults uses the dataset of the corpus the deployment serves', { skip: skipLive }, async () => {
  const refsearch = await startRefsearch();
  try {
    // A returning user whose deployment is the demo's refsearch: the dataset is not touched.
    const page = await openApp(h.browser, h.site.url, { settings: { base_url: refsearch.url } });
    await page.waitForSelector('[data-testid=load-bundled][data-dataset=octave-manual-figures].active', { timeout: 30_000 });
    await page.click('[data-testid=run-live]');
    await page.waitForSelector('[data-testid=report-view]', { timeout: 120_000 });
    assert.equal(await page.getAttribute('[data-testid=progress]', 'data-done'), '33');
    assert.equal(await page.locator('[data-testid=error-banner]').count(), 0);

    // A dataset the user chooses stays; the mismatch is said before the run, with the way out.
    await page.click('[data-testid=tab-workbench]');
    await loadBundled(page, 'nasa-apollo-11-figures');
    const said = page.locator('[data-testid=corpus-mismatch]');
    await said.waitFor();
    assert.match(await said.textContent(), /^The deployment serves octave-manual, but this dataset is for nasa-apollo-11, so its searches would find nothing\./);
    assert.deepEqual(await axeViolations(page), []);
    await page.click('[data-testid=load-matching]');
    await page.waitForSelector('[data-testid=load-bundled][data-dataset=octave-manual-figures].active');
    await said.waitFor({ state: 'detached' });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await refsearch.stop();
  }
});

test('a capture of another dataset is refused with one line naming both corpora', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await setField(page, 'responses-input', missEvery(OCTAVE, 4));
  await page.click('[data-testid=score-offline]');
  await page.waitForFunction(() => /^this capture is for/.test(document.querySelector('[data-testid=error-banner] .banner-detail')?.textContent || ''));
  const first = (await bannerText(page)).split('\n')[0];
  assert.equal(first, 'this capture is for octave-manual; the dataset is nasa-apollo-11');
  // The core's full list is folded away, not gone.
  assert.match(await page.textContent('[data-testid=banner-more]'), /33 responses for questions that are not in the dataset/);
  assert.equal(await page.locator('[data-testid=banner-more]').getAttribute('open'), null);
  await page.context().close();
});

test('the banner says a deployment\'s JSON error in its words, a damaged link and a misplaced dataset in plain ones', { skip }, async () => {
  const dep = await fakeDeployment(() => ({ status: 404, body: { detail: 'unknown corpus "nasa-apollo-11"' } }));
  try {
    const page = await openApp(h.browser, h.site.url);
    await setField(page, 'base-url', dep.url);
    await setField(page, 'retries', '0');
    await page.click('[data-testid=run-live]');
    const text = await bannerText(page);
    assert.match(text, /the deployment answered HTTP 404 Not Found: unknown corpus "nasa-apollo-11"/);
    assert.ok(!text.includes('\\"') && !text.includes('{"detail"'), `quoted once, as words: ${text}`);
    const font = await page.$eval('[data-testid=error-banner] .banner-detail', (el) => getComputedStyle(el).fontFamily);
    const prose = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
    assert.equal(font, prose, 'the banner is prose, in the page\'s font');

    await page.goto(`${h.site.url}#report=%%%not-base64`);
    await page.waitForFunction(() => /damaged/.test(document.querySelector('[data-testid=error-banner] .banner-detail')?.textContent || ''));
    assert.equal(await bannerText(page), 'this link is damaged (it was cut or changed)');
    const more = page.locator('[data-testid=banner-more]');
    assert.equal(await more.getAttribute('open'), null, 'the decoder\'s words are folded away');
    assert.match(await more.textContent(), /not base64url/);
    await page.click('[data-testid=dismiss-banner]');

    await page.click('[data-testid=tab-workbench]');
    await page.setInputFiles('[data-testid=report-input]', dir.file('octave-manual-figures.json', JSON.stringify(OCTAVE)));
    assert.match(await bannerText(page), /^this is a dataset, not a report/);
    assert.deepEqual(await axeViolations(page), []);
    await page.context().close();
  } finally {
    await dep.stop();
  }
});
