// More of a comparison, from the runs module (web/runs): below the Compare view, each scope's
// ranking metrics (nDCG and recall at 5 and 10) as `figeval compare` prints them, and the items ×
// runs table, which filters and sorts the questions by group, hit or miss on a metric in each
// run, and first-hit rank. Two reports from refsearch at top_k 10 (page and section chunking),
// so every ranking metric is stated.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  missing, appHarness, openApp, figeval, refsearchReport, scratch, axeViolations,
} from './support.mjs';

const skip = missing({ figeval: true, refsearch: true }) || false;
const h = appHarness(skip);
let tmp;
const reports = {};

before(async () => {
  if (skip) return;
  tmp = scratch();
  for (const chunking of ['page', 'section']) {
    const report = await refsearchReport({ refsearch: ['--chunking', chunking], run: ['--top-k', '10'] });
    reports[chunking] = { report, path: tmp.file(`${chunking}.json`, JSON.stringify(report)) };
  }
});
after(() => tmp?.remove());

async function openCompared() {
  const page = await openApp(h.browser, h.site.url);
  await page.click('[data-testid=tab-compare]');
  await page.setInputFiles('[data-testid=compare-before-input]', reports.page.path);
  await page.setInputFiles('[data-testid=compare-after-input]', reports.section.path);
  await page.waitForSelector('[data-testid=runs-ranking-row]');
  return page;
}

test('the ranking metrics below the comparison are the rows figeval compare prints', { skip, timeout: 300_000 }, async () => {
  const page = await openCompared();
  const rows = await page.$$eval('[data-testid=runs-ranking-row]', (trs) => trs.map((tr) => ({
    scope: tr.dataset.scope,
    metric: tr.dataset.metric,
    cells: [...tr.querySelectorAll('td[data-cell]')].map((td) => td.textContent),
    named: tr.querySelector('td:not([data-cell])').innerText.replace(/\s+/g, ' '),
  })));
  // Each metric is named as every table names it: its label over its report key.
  const LABEL = { ndcg_at_5: 'nDCG@5', ndcg_at_10: 'nDCG@10', recall_at_5: 'recall@5', recall_at_10: 'recall@10' };
  for (const row of rows) assert.equal(row.named, `${LABEL[row.metric]} ${row.metric}`, `${row.scope} ${row.metric}`);
  const groups = Object.keys(reports.page.report.by_group);
  assert.equal(rows.length, 4 * (1 + groups.length), 'four metrics in each scope');
  // The CLI's text: one section per scope, one line per ranking metric holding its four cells.
  const r = await figeval(['compare', reports.page.path, reports.section.path]);
  assert.equal(r.code, 0, r.stderr);
  const sections = r.stdout.split(/\n(?=\S)/);
  let stated = 0;
  for (const row of rows) {
    const [before, after, change] = row.cells;
    const [delta, ci] = /^(\S+) \((.*)\)$/.exec(change).slice(1);
    if (before !== 'null') stated += 1;
    const section = sections.find((s) => s.startsWith(`${row.scope}`) || s.includes(`\n${row.scope} `) || s.startsWith(`[${row.scope}]`))
      ?? sections.find((s) => s.split('\n')[0].includes(row.scope));
    assert.ok(section, `a section of the CLI's text for ${row.scope}`);
    const line = section.split('\n').find((l) => l.trim().startsWith(`${row.metric} `));
    assert.ok(line, `${row.scope} ${row.metric}: a line in the CLI's text`);
    for (const cell of [before, after, delta, ci]) {
      assert.ok(line.includes(cell), `${row.scope} ${row.metric}: ${JSON.stringify(cell)} in ${JSON.stringify(line)}`);
    }
  }
  assert.ok(stated >= 8, `at top_k 10 the metrics are stated (${stated} rows)`);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the items × runs table shows each run\'s hits, and filters and sorts them', { skip, timeout: 300_000 }, async () => {
  const page = await openCompared();
  const read = () => page.$$eval('[data-testid=runs-item]', (trs) => trs.map((tr) => ({
    question: tr.querySelector('th').textContent,
    cells: [...tr.querySelectorAll('td[data-cell]')].map((td) => [td.dataset.cell, td.dataset.rank ?? null]),
  })));
  const a = reports.page.report.per_item;
  const b = reports.section.report.per_item;
  const cell = (rec, metric) => [rec[metric] ? 'hit' : 'miss', rec.first_hit_rank == null ? null : String(rec.first_hit_rank)];
  const expected = (metric) => a.map((rec, i) => ({ question: rec.question, cells: [cell(rec, metric), cell(b[i], metric)] }));
  assert.deepEqual(b.map((r) => r.question), a.map((r) => r.question), 'the same questions in the same order');
  assert.deepEqual(await read(), expected('page_hit_at_3'), 'every question, in dataset order');
  // The metric picker names the metrics as the report's item filter does.
  assert.deepEqual(await page.locator('[data-testid=runs-metric] option').allTextContents(),
    ['page hit @3', 'page hit @5', 'precise @3', 'figure chunk @3']);

  await page.selectOption('[data-testid=runs-metric]', 'figure_chunk_at_3');
  assert.deepEqual(await read(), expected('figure_chunk_at_3'));

  await page.selectOption('[data-testid=runs-show]', 'changed');
  const changed = expected('figure_chunk_at_3').filter((r) => r.cells[0][0] !== r.cells[1][0]);
  assert.ok(changed.length > 0, 'section chunking changes some figure chunks');
  assert.deepEqual(await read(), changed, 'hit in one run, missed in the other');

  await page.selectOption('[data-testid=runs-show]', 'all');
  await page.selectOption('[data-testid=runs-group]', 'prose');
  const prose = await read();
  const proseQs = a.filter((r) => r.group === 'prose').map((r) => r.question);
  assert.deepEqual(prose.map((r) => r.question), proseQs, 'the prose group only');

  await page.selectOption('[data-testid=runs-group]', '');
  await page.selectOption('[data-testid=runs-order]', 'best');
  const best = (await read()).map((r) => Math.min(...r.cells.map(([, rank]) => (rank == null ? Infinity : Number(rank)))));
  assert.deepEqual(best, [...best].sort((x, y) => x - y), 'best first-hit rank first');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
