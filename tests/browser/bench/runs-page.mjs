// The Runs view's first page of 10,000 stored runs (issue 34 §4): a real `figeval serve`
// (SQLite, in a scratch folder) filled with BENCH_STORED runs (default 10,000) of the Octave
// demo's report, pushed through its API by 8 clients; then, in a fresh browser context each
// visit (nothing cached), the time from a click on *Runs* to the first row of the stored runs:
// loading the runs module, asking `api/session` and `api/runs?limit=50`, and drawing the page.
// The baseline, measured in the same visits: the API's own answer to the same
// `GET api/runs?limit=50`, fetched by the page.
//
// Environment: FIGEVAL_DIST (default dist/), FIGEVAL_BIN (a release build), BENCH_RUNS (visits,
// default 5), BENCH_STORED (default 10000), CHROMIUM. Prints the medians, their ratio, and
// PASS/FAIL: the first page shows in under 300 ms.

import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, launch, watchProblems, missEvery, scratch, figevalReport, startServe, pushRun,
} from '../support.mjs';
import { requireTools, machine, ms, list, verdict } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const STORED = Number(process.env.BENCH_STORED || 10000);
const TARGET_MS = 300;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Pushes `n` runs of `report` by `clients` at once; resolves the seconds it took. */
async function fill(url, report, n, clients = 8) {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < n) {
      const i = next++;
      await pushRun(url, { report, name: `run ${i}`, labels: { branch: i % 2 ? 'main' : 'feature', n: String(i) } });
    }
  }));
  return (performance.now() - t0) / 1000;
}

/** One visit: { view: ms from the click on Runs to the first stored row, api: ms of the API's own answer }. */
async function visit(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  watchProblems(page);
  await page.goto(url);
  await page.waitForSelector('[data-testid=dataset-input]'); // the workbench, loaded and drawn
  await page.waitForLoadState('networkidle');
  const api = await page.evaluate(async () => {
    const t0 = performance.now();
    const r = await fetch('api/runs?limit=50');
    await r.text();
    return performance.now() - t0;
  });
  const view = await page.evaluate(() => new Promise((resolve) => {
    const t0 = performance.now();
    const done = () => document.querySelector('[data-testid=history-stored] [data-testid=history-row]');
    new MutationObserver((_, o) => {
      if (done()) { o.disconnect(); resolve(performance.now() - t0); }
    }).observe(document, { childList: true, subtree: true });
    document.querySelector('[data-testid=tab-runs]').click();
  }));
  const rows = await page.locator('[data-testid=history-stored] [data-testid=history-row]').count();
  if (rows !== 50) throw new Error(`the first page showed ${rows} runs, not 50`);
  if (page.problems.length) throw new Error(`the page reported: ${page.problems.join('; ')}`);
  await context.close();
  return { view, api };
}

async function main() {
  requireTools();
  const tmp = scratch();
  const capture = tmp.file('octave.jsonl', missEvery(JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8')), 3));
  const report = await figevalReport(['score', '--responses', capture, '--dataset', OCTAVE_DATASET]);
  const server = await startServe();
  const browser = await launch();
  try {
    const s = await fill(server.url, report, STORED);
    console.log(`runs-page: ${STORED.toLocaleString('en-US')} runs pushed in ${s.toFixed(1)} s (${Math.round(STORED / s)}/s, 8 clients), SQLite, ${machine()}`);
    const visits = [];
    for (let i = 0; i < RUNS; i++) visits.push(await visit(browser, server.url));
    const view = visits.map((v) => v.view);
    const api = visits.map((v) => v.api);
    console.log(`  click on Runs → first of 50 stored runs on show: median ${ms(median(view))} (visits ${list(view)}), fresh context each`);
    console.log(`  the API's own GET api/runs?limit=50, from the page:  median ${ms(median(api))} (visits ${list(api)})`);
    const ratio = median(view) / median(api);
    console.log(`  ratio view/API: ${ratio.toFixed(1)}`);
    const ok = verdict(`the first page of ${STORED.toLocaleString('en-US')} stored runs shows in under ${TARGET_MS} ms`,
      median(view) < TARGET_MS, ms(median(view)));
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    await server.stop();
    tmp.remove();
  }
}

main().catch((e) => { console.error(e); process.exit(2); });
