// A stored run's short link against the share link of the same report (issue 34, Performance):
// a real `figeval serve` (SQLite, in a scratch folder) holds the Octave demo's report (33
// items, as `figeval score` writes it); each visit, in a fresh browser context (nothing
// cached), times from navigation to the first group table. The short link `/r/ID` answers 303
// to `#run=ID`, then the page asks `api/runs/ID` and opens the report; the baseline, measured in
// the same run and taking turns with it, is the `#report=` link of the same report, served by
// the same server.
//
// Environment: FIGEVAL_DIST (default dist/), FIGEVAL_BIN (a release build), BENCH_RUNS (visits
// of each, default 7), CHROMIUM. Prints the medians, their ratio, and PASS/FAIL: the short link
// takes at most 1.5× the share link's time.

import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import {
  OCTAVE_DATASET, launch, watchProblems, missEvery, scratch, figevalReport, startServe, pushRun,
} from '../support.mjs';
import { requireTools, machine, ms, list, verdict, noteFirstTable } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 7);
const TARGET = 1.5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One visit of `url`: ms from navigation to the first group table. */
async function visit(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  watchProblems(page);
  const tableAt = await noteFirstTable(page);
  await page.goto(url);
  const at = await tableAt();
  if (page.problems.length) throw new Error(`the page reported: ${page.problems.join('; ')}`);
  await context.close();
  return at;
}

async function main() {
  requireTools();
  const tmp = scratch();
  const capture = tmp.file('octave.jsonl', missEvery(JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8')), 3));
  const report = await figevalReport(['score', '--responses', capture, '--dataset', OCTAVE_DATASET]);
  const server = await startServe();
  const browser = await launch();
  try {
    const { id } = await pushRun(server.url, { report, name: 'octave, every third missed' });
    const short = `${server.url}r/${id}`;
    const fragment = `${server.url}#report=${deflateRawSync(Buffer.from(JSON.stringify(report))).toString('base64url')}`;
    console.log(`run-link: the Octave report (33 items), short link ${short.length} characters, share link ${fragment.length}; ${machine()}`);
    await visit(browser, fragment); // warms the server's file cache, not the browser's
    const times = { short: [], fragment: [] };
    for (let i = 0; i < RUNS; i++) {
      times.fragment.push(await visit(browser, fragment));
      times.short.push(await visit(browser, short));
    }
    console.log(`  /r/ID → first group table:      median ${ms(median(times.short))} (visits ${list(times.short)}), fresh context each`);
    console.log(`  #report= → first group table:   median ${ms(median(times.fragment))} (visits ${list(times.fragment)})`);
    const ratio = median(times.short) / median(times.fragment);
    console.log(`  ratio short/share link: ${ratio.toFixed(2)}×`);
    const ok = verdict(`a stored run's short link opens within ${TARGET}× its share link's time`, ratio <= TARGET, `${ratio.toFixed(2)}×`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    await server.stop();
    tmp.remove();
  }
}

main().catch((e) => { console.error(e); process.exit(2); });
