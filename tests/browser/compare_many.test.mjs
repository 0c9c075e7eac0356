// Intervals in the report view and many reports in the compare view (issue 11).
//
// The report view: every bar of the chart has a whisker over its 95% interval, the group table
// shows the interval as the text report prints it and a screen reader hears it; a report from
// before intervals (no `_ci` keys) still opens.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, missEvery, readGroupTable, assertTableMatchesReport,
  figevalReport, scratch, intervalData, fixed2,
} from './support.mjs';

const skip = missing({ figeval: true }) || false;
const app = appHarness(skip);
const dataset = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));
const tmp = scratch();
after(() => tmp.remove());

/** Bodies that hit at rank 1 for every item whose index is not a multiple of `every`. */
const capture = (every) => missEvery(dataset, every);

/** A report file `figeval score` wrote for capture(every): { path, report }. */
async function reportFile(name, every) {
  const responses = tmp.file(`${name}.jsonl`, capture(every));
  const report = await figevalReport(['score', '--responses', responses, '--dataset', OCTAVE_DATASET]);
  return { path: tmp.file(`${name}.json`, JSON.stringify(report)), report };
}

/** Opens a report file's text in the report view. */
async function openReport(page, name, text) {
  await page.setInputFiles('[data-testid=report-input]', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForSelector('[data-testid=report-view]');
}

test('every bar has a whisker over its interval, the table shows and speaks it, and a report without intervals opens', { skip }, async () => {
  const { report } = await reportFile('intervals', 3);
  const page = await openApp(app.browser, app.site.url);
  await openReport(page, 'intervals.json', JSON.stringify(report));
  const table = await readGroupTable(page);
  assertTableMatchesReport(assert, table, report);

  const scopes = { ...report.by_group, overall: report };
  const whiskers = await page.$$eval('[data-testid=group-chart] [data-testid=whisker]',
    (ws) => ws.map((w) => [w.closest('[data-group]').dataset.group, w.dataset.metric, w.dataset.ci, w.querySelector('path:not(.halo)').getAttribute('d')]));
  const charted = ['page_hit_at_3', 'precise_page_hit_at_3', 'figure_chunk_at_3'];
  assert.equal(whiskers.length, Object.keys(scopes).length * charted.length, 'one whisker a bar');
  for (const [group, metric, ci, d] of whiskers) {
    const [lo, hi] = scopes[group][`${metric}_ci`];
    assert.equal(ci, intervalData([lo, hi]), `${group} ${metric}`);
    // The whisker's axis runs in ten-thousandths of the rate: it spans exactly the interval.
    const [x1, x2] = [Math.round(lo * 10_000), Math.round(hi * 10_000)];
    assert.equal(d, `M${x1} 6H${x2}M${x1} 2V10M${x2} 2V10`, `${group} ${metric} whisker`);
  }

  const chart = await page.getByRole('img', { name: /^Rates by group:/ }).getAttribute('aria-label');
  const [lo, hi] = report.page_hit_at_3_ci;
  const spoken = `page hit at 3, overall: ${report.page_hit_at_3.toFixed(4)}, ${report.page_hit_at_3_hits} of ${report.n}, 95% CI ${fixed2(lo)} to ${fixed2(hi)}`;
  assert.ok(chart.includes(`${spoken};`), chart);
  assert.equal(await page.getByRole('cell', { name: spoken, exact: true }).count(), 1, spoken);

  // A report from before intervals: no `_ci` key anywhere. A rate's interval follows from its
  // hits and n; MRR's bootstrap is stated, not derived, so it shows alone.
  const strip = (s) => Object.fromEntries(Object.entries(s).filter(([k]) => !k.endsWith('_ci')));
  const old = strip(report);
  old.by_group = Object.fromEntries(Object.entries(report.by_group).map(([g, s]) => [g, strip(s)]));
  await openReport(page, 'old.json', JSON.stringify(old));
  await page.waitForFunction(() => document.querySelector('[data-testid=group-table] td[data-metric=page_mrr]')?.dataset.ci === undefined);
  const oldTable = await readGroupTable(page);
  assert.equal(oldTable.overall.page_mrr.text, report.page_mrr.toFixed(4));
  for (const [group, cells] of Object.entries(oldTable)) {
    for (const m of charted) assert.equal(cells[m].text, table[group][m].text, `${group} ${m}`);
  }
  assert.equal(await page.locator('[data-testid=group-chart] [data-testid=whisker]').count(), whiskers.length);
  assert.equal(await page.locator('[data-testid=error-banner]').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
