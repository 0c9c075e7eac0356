// The Document view's dataset check on the Octave manual (1158 pages), against poppler's
// pdftotext reading the whole manual natively in the same run. See README.md here.
//
//   node tests/browser/bench/doc-check.mjs
//
// In a fresh page of the built app (BENCH_RUNS runs, best kept), with the bundled Octave dataset
// loaded and the Document view on show, the manual is opened with the app's file input
// (`pdf-input`). From the input's change event: the time until the check shows the dataset's
// 33 `ok` verdicts (provisional: the viewer reads the expected pages first), and the time until
// the whole manual is read and the check is final (`data-status=checked`, 33 `ok`). Baseline:
// `pdftotext` writing the text of every page of the same PDF. Printed as ratios. Target: the 33
// verdicts within 3 s of opening. Exit 0 PASS, 1 FAIL, 2 cannot run.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openApp, loadBundled, showDocument, DIST, OCTAVE_PDF, manualMissing } from '../support.mjs';
import { RUNS, best, ms, list, machine, verdict, cannotRun } from './lib.mjs';

const EARLY_MAX = 3000;
const ITEMS = 33;

if (!existsSync(path.join(DIST, 'pdfview.mjs'))) cannotRun(`no built app with the renderer at ${DIST} (trunk build --offline --release)`);
if (manualMissing()) cannotRun(manualMissing());
try { execFileSync('pdftotext', ['-v'], { stdio: 'ignore' }); } catch { cannotRun('no pdftotext (poppler-utils) for the baseline'); }

console.log(`The dataset check on the Octave manual — ${machine()}\n`);

// --- the baseline: pdftotext, every page ---------------------------------------------------
const nativeTimes = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  execFileSync('pdftotext', [OCTAVE_PDF, '-'], { stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 1 << 30 });
  nativeTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
const native = best(nativeTimes);
console.log(`pdftotext, the whole manual: best ${ms(native)} (runs ${list(nativeTimes)})`);

// --- the page -------------------------------------------------------------------------------
const site = await serveDist();
const browser = await launch();
const earlies = []; const wholes = []; const problems = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const page = await openApp(browser, site.url);
    await loadBundled(page, 'octave-manual-figures');
    await showDocument(page);
    await page.evaluate(() => {
      window.__bench = {};
      document.addEventListener('change', (e) => { if (e.target?.dataset?.testid === 'pdf-input') window.__bench.changed = performance.now(); }, { capture: true });
    });
    await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
    // Both moments, watched in the page (polling from here would add its round trips).
    const t = await page.evaluate((items) => new Promise((resolve) => {
      const out = {};
      const tick = () => {
        const panel = document.querySelector('[data-testid=ground-panel]');
        const ok = document.querySelectorAll('[data-testid=ground-panel] [data-testid=ground-row][data-verdict=ok]').length;
        const now = performance.now() - window.__bench.changed;
        if (out.early === undefined && ok >= items) {
          out.early = now;
          out.earlyStatus = panel.dataset.status;
        }
        if (panel?.dataset.status === 'checked') {
          out.whole = now;
          out.wholeOk = ok;
          resolve(out);
          return;
        }
        requestAnimationFrame(tick);
      };
      tick();
    }), ITEMS);
    if (t.wholeOk !== ITEMS) problems.push(`run ${i + 1}: ${t.wholeOk} ok verdicts once the whole manual is read, not ${ITEMS}`);
    if (t.early === undefined) problems.push(`run ${i + 1}: the ${ITEMS} verdicts came only with the whole manual`);
    earlies.push(t.early ?? t.whole);
    wholes.push(t.whole);
    problems.push(...(await page.evaluate(() => window.__cspViolations || [])).map((v) => `CSP: ${v}`));
    console.log(`  run ${i + 1}: ${ITEMS} ok verdicts after ${ms(t.early ?? t.whole)} (panel ${t.earlyStatus ?? 'checked'}); whole manual read and checked after ${ms(t.whole)}`);
    await page.context().close();
  }
} finally {
  await browser.close();
  await site.stop();
}

const early = best(earlies);
const whole = best(wholes);
console.log(`\n${ITEMS} verdicts: best ${ms(early)} (runs ${list(earlies)})`);
console.log(`whole manual: best ${ms(whole)} (runs ${list(wholes)})`);
console.log(`ratios: verdicts/whole ${(early / whole).toFixed(2)}; verdicts/pdftotext ${(early / native).toFixed(2)}; whole/pdftotext ${(whole / native).toFixed(2)}`);
console.log('');
let ok = verdict(`${ITEMS} ok verdicts provisional, then final, no CSP violation`, problems.length === 0, problems.slice(0, 5).join('; ') || `${RUNS} runs`);
ok = verdict(`${ITEMS} verdicts < ${EARLY_MAX} ms from opening`, early < EARLY_MAX, ms(early)) && ok;
process.exit(ok ? 0 : 1);
