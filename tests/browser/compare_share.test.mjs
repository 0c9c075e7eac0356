// A comparison shared as a link: `#compare=` carries the reports in order (the baseline first)
// and opens straight on the compare view; damaged, oversized or one-report links show the
// banner, never a crash.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, loadBundled, setField, missEvery,
} from './support.mjs';

const skip = missing() || false;
const app = appHarness(skip);
const dataset = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));

/** Bodies that hit at rank 1 for every item whose index is not a multiple of `every`. */
const capture = (every) => missEvery(dataset, every);

/** Scores a capture of the bundled Octave dataset in the page and puts it in a compare slot. */
async function scoreInto(page, text, slot) {
  await page.click('[data-testid=tab-workbench]');
  await setField(page, 'responses-input', text);
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=report-view]');
  await page.click(`[data-testid=compare-as-${slot}]`);
  await page.waitForSelector(`[data-testid=compare-${slot}-name]`);
}

/** What the compare view shows: the two slots, every scope's table, and the reading. */
function compareView(page) {
  return page.evaluate(() => ({
    before: document.querySelector('[data-testid=compare-before-name]')?.textContent,
    after: document.querySelector('[data-testid=compare-after-name]')?.textContent,
    comparison: document.querySelector('[data-testid=comparison]')?.innerText,
    shown: !document.querySelector('[data-testid=compare-view]').closest('[hidden]'),
  }));
}

/** The value of a fragment the way share.rs writes it: raw DEFLATE, base64url. */
const pack = (value) => deflateRawSync(Buffer.from(JSON.stringify(value))).toString('base64url');

test('a comparison share link opens the same compare view in a fresh page', { skip }, async () => {
  const page = await openApp(app.browser, app.site.url);
  await loadBundled(page, 'octave-manual-figures');
  await scoreInto(page, capture(3), 'before');
  await scoreInto(page, capture(7), 'after');
  await page.click('[data-testid=tab-compare]');
  await page.waitForSelector('[data-testid=comparison]');
  const shown = await compareView(page);
  assert.ok(shown.shown && shown.comparison.includes('page_hit_at_3'), 'the comparison is on show');

  const link = await page.locator('[data-testid=compare-share-link]').inputValue();
  assert.ok(link.startsWith(`${app.site.url}#compare=`), link.slice(0, 80));
  const reports = JSON.parse(inflateRawSync(Buffer.from(link.split('#compare=')[1], 'base64url')));
  const names = await page.locator('[data-testid^=compare-][data-testid$=-name] strong').allTextContents();
  assert.deepEqual(reports.reports.map((r) => r.name), names, 'each report with its name in the page');
  assert.deepEqual(reports.reports.map((r) => r.report.n), [33, 33]);
  assert.notEqual(reports.reports[0].report.page_hit_at_3, reports.reports[1].report.page_hit_at_3,
    'the baseline comes first');

  const other = await openApp(app.browser, link);
  await other.waitForSelector('[data-testid=comparison]');
  assert.equal(await other.locator('[data-testid=tab-compare]').getAttribute('aria-current'), 'page',
    'the link opens on the compare view');
  assert.deepEqual(await compareView(other), shown);
  assert.equal(await other.locator('[data-testid=compare-share-link]').inputValue(), link,
    'the opened comparison shares the same link');
  assert.equal(await other.locator('[data-testid=error-banner]').count(), 0);
  assert.deepEqual(other.problems, []);
  await other.context().close();
  await page.context().close();
});

test('a corrupt, oversized or one-report comparison link shows the banner, never a crash', { skip }, async () => {
  const page = await openApp(app.browser, app.site.url);
  await loadBundled(page, 'octave-manual-figures');
  await setField(page, 'responses-input', capture(3));
  await page.click('[data-testid=score-offline]');
  const reportLink = await page.locator('[data-testid=share-link]').inputValue();
  const report = JSON.parse(inflateRawSync(Buffer.from(reportLink.split('#report=')[1], 'base64url')));
  await page.context().close();

  for (const [fragment, expected] of [
    ['#compare=%%%not-base64', /damaged: not base64url/],
    ['#compare=AAAA', /damaged|does not hold a figeval comparison/],
    ['#compare=' + 'A'.repeat((1 << 20) + 10), /too large for a link/],
    ['#compare=' + pack({ reports: [{ name: 'only', report }] }), /holds at least 2 reports, this one 1/],
    ['#compare=' + pack(report), /does not hold a figeval comparison/],
    ['#compare=' + pack({ reports: [{ name: 'a', report }, { name: 'b', report: { n: 1 } }] }),
      /does not hold a figeval comparison: line 1, column \d+/],
  ]) {
    const opened = await openApp(app.browser, app.site.url + fragment);
    const banner = opened.locator('[data-testid=error-banner]');
    await banner.waitFor();
    const text = await banner.textContent();
    assert.match(text, /This share link cannot be opened/, fragment.slice(0, 40));
    assert.match(text, expected, fragment.slice(0, 40));
    assert.equal(await opened.locator('[data-testid=comparison]').count(), 0, 'nothing is compared');
    // The app still works: a bundled dataset loads.
    await loadBundled(opened, 'octave-manual-figures');
    assert.deepEqual(opened.problems, []);
    await opened.context().close();
  }
});
