// The page's PDF renderer (pdf.js, web/pdfview.mjs) on the Octave manual, against poppler's
// pdftoppm drawing the same thumbnails natively in the same run. See README.md here.
//
//   node tests/browser/bench/pdf-render.mjs
//
// In a fresh page of the built app (3 runs, best kept): the manual is opened with the app's
// file input (`pdf-input`) while the first item's ranked window is open; time to its first
// drawn thumbnail, from the input's change event. Then thumbnails per second: 100 pages
// (300–399) watched at once, as the ranked windows do (`watch`), all on screen, until every
// one is drawn; against `pdftoppm` drawing the same 100 pages at the same width (168 px). Then
// memory: the browser's resident memory (every Chromium process) with the manual open and
// those thumbnails cached, against the same app with no PDF, and the renderer's bytes.
// Targets: first thumbnail < 3 s; thumbnails per second at least 1/4 of pdftoppm's; the cache
// within its bound. Exit 0 PASS, 1 FAIL, 2 cannot run.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { scratch, serveDist, launch, openApp, loadBundled, setField, searchBody, DIST, OCTAVE_PDF, OCTAVE_DATASET, manualMissing } from '../support.mjs';
import { RUNS, best, ms, list, machine, verdict, cannotRun } from './lib.mjs';

const FIRST_MAX = 3000;
const PAGES = Array.from({ length: 100 }, (_, i) => 300 + i);
const WIDTH = 168; // pdfview.mjs draws thumbnails at twice their 84 CSS px

if (!existsSync(path.join(DIST, 'pdfview.mjs'))) cannotRun(`no built app with the renderer at ${DIST} (trunk build --offline --release)`);
if (manualMissing()) cannotRun(manualMissing());
try { execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' }); } catch { cannotRun('no pdftoppm (poppler-utils) for the baseline'); }

/** Resident memory (KB) of every process below this one: the browser and its children. */
function browserRssKB() {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=']).toString().trim().split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const kids = new Map();
  for (const [pid, ppid] of rows) { if (!kids.has(ppid)) kids.set(ppid, []); kids.get(ppid).push(pid); }
  const rss = new Map(rows.map(([pid, , r]) => [pid, r]));
  let sum = 0;
  const stack = [process.pid];
  while (stack.length) for (const k of kids.get(stack.pop()) || []) { sum += rss.get(k); stack.push(k); }
  return sum;
}

const gz = (f) => gzipSync(readFileSync(path.join(DIST, f)), { level: 9 }).length;
const rendererFiles = readdirSync(DIST).filter((f) => f.endsWith('.mjs'));
const rendererGz = rendererFiles.reduce((s, f) => s + gz(f), 0);
const mainGz = readdirSync(DIST).filter((f) => f.endsWith('.wasm') || f.endsWith('.js')).reduce((s, f) => s + gz(f), 0);

console.log(`PDF renderer on the Octave manual — ${machine()}`);
console.log(`  renderer (loaded when a PDF is opened): ${rendererFiles.join(', ')} = ${(rendererGz / 1000).toFixed(1)} KB gzip; `
  + `main bundle (*.wasm + *.js) ${(mainGz / 1000).toFixed(1)} KB gzip\n`);

// --- the baseline: pdftoppm, the same pages, the same width --------------------------------
const tmp = scratch();
const nativeTimes = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  execFileSync('pdftoppm', ['-jpeg', '-scale-to-x', String(WIDTH), '-scale-to-y', '-1', '-f', String(PAGES[0]),
    '-l', String(PAGES.at(-1)), OCTAVE_PDF, path.join(tmp.dir, `run${i}`)], { stdio: 'ignore' });
  nativeTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
tmp.remove();
const nativeRate = PAGES.length / (best(nativeTimes) / 1000);
console.log(`pdftoppm, ${PAGES.length} pages at ${WIDTH} px: best ${ms(best(nativeTimes))} (runs ${list(nativeTimes)}) = ${nativeRate.toFixed(1)} pages/s`);

// --- the page ---------------------------------------------------------------------------------
const dataset = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));
const capture = dataset.items.map((it) => JSON.stringify(searchBody(it.question, [[it.expected_pages[0], it.expected_pages[0]]]))).join('\n');
const site = await serveDist();
const browser = await launch();
const firsts = []; const rates = []; const problems = []; let memory = null; let counters = null;
try {
  for (let i = 0; i < RUNS; i++) {
    const page = await openApp(browser, site.url);
    await loadBundled(page, 'octave-manual-figures');
    await setField(page, 'responses-input', capture);
    await page.click('[data-testid=score-offline]');
    await page.click('[data-testid=item-row] >> nth=0 >> [data-testid=item-toggle]');
    await page.waitForSelector('[data-testid=ranked-window]');
    const baseKB = browserRssKB();
    await page.evaluate(() => {
      window.__bench = {};
      document.addEventListener('change', (e) => { if (e.target?.dataset?.testid === 'pdf-input') window.__bench.changed = performance.now(); }, { capture: true });
    });
    await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
    const first = await page.evaluate(() => new Promise((resolve) => {
      const done = () => document.querySelector('[data-testid=ranked-window] img[data-rendered]');
      const tick = () => (done() ? resolve(performance.now() - window.__bench.changed) : requestAnimationFrame(tick));
      tick();
    }));
    firsts.push(first);
    // Thumbnails per second: every page of PAGES watched at once, all on screen.
    const r = await page.evaluate(async (pages) => {
      const renderer = await globalThis.figevalRenderer();
      const box = document.createElement('div');
      document.body.prepend(box);
      const imgs = pages.map((p) => { const img = document.createElement('img'); img.dataset.thumb = String(p); img.width = 8; img.height = 8; box.append(img); return img; });
      window.scrollTo(0, 0);
      const before = renderer.counters();
      const t0 = performance.now();
      imgs.forEach((img) => renderer.watch(img));
      await new Promise((resolve) => {
        const tick = () => (imgs.every((img) => img.dataset.rendered) ? resolve() : setTimeout(tick, 5));
        tick();
      });
      const t = performance.now() - t0;
      const c = renderer.counters();
      box.remove();
      // A page the open ranked window already shows (p.349) comes from the cache.
      return { ms: t, drawn: c.rendered - before.rendered + c.cacheHits - before.cacheHits, counters: c };
    }, PAGES);
    rates.push(PAGES.length / (r.ms / 1000));
    if (r.drawn !== PAGES.length) problems.push(`run ${i + 1}: ${r.drawn} thumbnails drawn or taken from the cache for ${PAGES.length} pages`);
    counters = r.counters;
    if (i === RUNS - 1) {
      memory = { baseMB: baseKB / 1024, openMB: browserRssKB() / 1024 };
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable'); // getMetrics answers nothing before it
      const heap = await cdp.send('Performance.getMetrics').catch(() => null);
      const used = heap?.metrics.find((m) => m.name === 'JSHeapUsedSize');
      memory.jsHeapMB = used ? used.value / 1048576 : NaN;
    }
    problems.push(...(await page.evaluate(() => window.__cspViolations || [])).map((v) => `CSP: ${v}`));
    console.log(`  run ${i + 1}: first thumbnail ${ms(first)} from the file input; ${PAGES.length} thumbnails in ${ms(r.ms)} = ${(PAGES.length / (r.ms / 1000)).toFixed(1)}/s`);
    await page.context().close();
  }
} finally {
  await browser.close();
  await site.stop();
}

const rate = Math.max(...rates);
console.log(`\nfirst thumbnail: best ${ms(best(firsts))} (runs ${list(firsts)})`);
console.log(`thumbnails per second: best ${rate.toFixed(1)} (runs ${rates.map((x) => x.toFixed(1)).join(', ')}); pdftoppm ${nativeRate.toFixed(1)}; ratio page/native ${(rate / nativeRate).toFixed(2)}`);
console.log(`memory (all Chromium processes, resident): ${memory.baseMB.toFixed(0)} MB with no PDF, ${memory.openMB.toFixed(0)} MB with the manual open and ${counters.cached} thumbnails cached `
  + `(+${(memory.openMB - memory.baseMB).toFixed(0)} MB); page JS heap ${memory.jsHeapMB.toFixed(1)} MB`);
console.log('');
let ok = verdict('every thumbnail drawn, no CSP violation', problems.length === 0, problems.slice(0, 5).join('; ') || `${RUNS} runs`);
ok = verdict(`first thumbnail < ${FIRST_MAX} ms`, best(firsts) < FIRST_MAX, ms(best(firsts))) && ok;
ok = verdict('thumbnails per second ≥ 1/4 of pdftoppm', rate >= nativeRate / 4, `${(rate / nativeRate).toFixed(2)} × pdftoppm`) && ok;
ok = verdict('thumbnail cache within its bound', counters.cached <= counters.cacheLimit, `${counters.cached} of at most ${counters.cacheLimit}`) && ok;
process.exit(ok ? 0 : 1);
