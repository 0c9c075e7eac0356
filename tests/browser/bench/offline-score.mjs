// Offline scoring of a 10k-item capture: in the page (headless Chromium) against the native
// `figeval score`. See README.md here for the commands and the figures.
//
//   node tests/browser/bench/offline-score.mjs
//
// Native: `figeval score --responses CAPTURE --dataset DATASET > /dev/null`, best of 3.
// Page: a fresh page per run; the dataset and the capture are opened with the app's file
// pickers (`dataset-file`, `responses-file`: the browser is given the files' paths, as when a
// user picks them), then the clock runs from the click on `score-offline` to the moment the
// `group-table` shows the overall numbers, best of 3. The click's handler returns when the
// reducer has scored the capture (Yew renders afterwards, from a microtask), so the time splits
// into scoring and rendering. The page's overall and per-group numbers must equal the native
// report's. Target: page within 3x of native. Exit 0 PASS, 1 FAIL, 2 cannot run.

import path from 'node:path';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, readGroupTable, assertTableMatchesReport, METRICS } from '../support.mjs';
import {
  ITEMS, RUNS, requireTools, inputs, runFigeval, timeNative, best, ms, list, machine, verdict, PAGE_HELPERS,
} from './lib.mjs';

const RATIO_MAX = 3;

requireTools();
const input = inputs();
console.log(`offline scoring, ${ITEMS.toLocaleString('en-US')} items — ${machine()}`);
console.log(`  dataset ${input.dataset} (${input.datasetMB.toFixed(1)} MB)`);
console.log(`  capture ${input.capture} (${input.captureMB.toFixed(1)} MB, ${input.reused ? 'reused' : 'generated'} by ${input.bin})`);

// Native and page runs alternate, so a change in the machine's load hits both sides alike.
const args = ['score', '--responses', input.capture, '--dataset', input.dataset];
const nativeReport = JSON.parse((await runFigeval(args, { keep: true })).stdout); // also warms the page cache
const nativeTimes = [];
const site = await serveDist();
const browser = await launch();
const runs = [];
let table;
console.log('');
try {
  for (let i = 0; i < RUNS; i++) {
    const [nativeMs] = timeNative(args, 1);
    nativeTimes.push(nativeMs);
    console.log(`  native run ${i + 1}: figeval score > /dev/null ${ms(nativeMs)}`);
    const page = await openApp(browser, site.url);
    await page.evaluate(PAGE_HELPERS);
    let t = Date.now();
    await page.setInputFiles('[data-testid=dataset-file]', input.dataset);
    await page.waitForFunction((n) => document.querySelector('[data-testid=dataset-status]')?.textContent.includes(`${n} items`),
      ITEMS, { timeout: 120_000, polling: 50 });
    const datasetMs = Date.now() - t;
    t = Date.now();
    await page.setInputFiles('[data-testid=responses-file]', input.capture);
    const name = path.basename(input.capture);
    await page.waitForFunction((n) => document.querySelector('#offline-h')?.closest('section').textContent.includes(`${n} ·`)
      && !document.querySelector('[data-testid=score-offline]').disabled, name, { timeout: 120_000, polling: 50 });
    const captureMs = Date.now() - t;
    const r = await page.evaluate(async () => {
      const B = window.__figevalBench;
      const tableShown = B.when('[data-testid=group-table] tr[data-group=overall] td[data-metric=page_hit_at_3]');
      const rowsShown = B.when('[data-testid=item-row]');
      const button = document.querySelector('[data-testid=score-offline]');
      const t0 = performance.now();
      button.click();
      const scored = performance.now();
      const table = await tableShown;
      const painted = await B.painted();
      const rows = await rowsShown;
      return {
        score: scored - t0, render: table - scored, table: table - t0, painted: painted - t0, rows: rows - t0,
        itemRows: document.querySelectorAll('[data-testid=item-row]').length,
      };
    });
    runs.push({ datasetMs, captureMs, ...r });
    console.log(`  page run ${i + 1}: click → table ${ms(r.table)} (scoring ${ms(r.score)}, render ${ms(r.render)}), `
      + `painted ${ms(r.painted)}, first item rows ${ms(r.rows)} (${r.itemRows} rows in the DOM); `
      + `before the click: dataset file → valid ${ms(datasetMs)}, capture file → loaded ${ms(captureMs)}`);
    if (i === RUNS - 1) table = await readGroupTable(page);
    await page.context().close();
  }
} finally {
  await browser.close();
  await site.stop();
}

const native = best(nativeTimes);

// --- the same numbers -----------------------------------------------------------------------
const problems = [];
// Every cell as the text report prints it, intervals included (the page's wasm bootstrap must
// give the native MRR interval): the check the browser tests make.
try {
  assertTableMatchesReport(assert, table, nativeReport);
} catch (e) {
  problems.push(e.message.split('\n')[0]);
}

const page = best(runs.map((r) => r.table));
const scoring = best(runs.map((r) => r.score));
const render = best(runs.map((r) => r.render));
const o = nativeReport;
console.log(`\nnative overall: n ${o.n}, page_hit_at_3 ${o.page_hit_at_3} (${o.page_hit_at_3_hits}), page_mrr ${o.page_mrr}`);
console.log(`page  click → group table: best ${ms(page)} (runs: ${list(runs.map((r) => r.table))}); `
  + `of which scoring best ${ms(scoring)}, render best ${ms(render)}`);
console.log(`native figeval score:      best ${ms(native)} (runs: ${list(nativeTimes)})`);
console.log(`ratio page / native: ${(page / native).toFixed(2)}x (scoring alone ${(scoring / native).toFixed(2)}x; `
  + `with the file loads before the click ${(best(runs.map((r) => r.table + r.datasetMs + r.captureMs)) / native).toFixed(2)}x)\n`);

let ok = verdict('the page shows the native numbers', problems.length === 0,
  problems.length ? problems.slice(0, 5).join('; ') : `every group and overall, ${METRICS.length} metrics with their intervals + page_mrr with its interval + n`);
ok = verdict(`page within ${RATIO_MAX}x of native`, page <= RATIO_MAX * native,
  `${ms(page)} vs ${ms(native)} = ${(page / native).toFixed(2)}x`) && ok;
process.exit(ok ? 0 : 1);
