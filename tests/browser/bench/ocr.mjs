// OCR in the page (tesseract.js in workers, pages kept in IndexedDB) against native tesseract
// through `figeval captions` (one process per core, pages kept in its cache) on the project's
// scanned excerpt, in the same run. See README.md here.
//
//   FIGEVAL_BIN=target/debug/figeval node tests/browser/bench/ocr.mjs
//
// The excerpt is the Octave manual's pages 325–370 without their text layer
// (`xtask/scanned_excerpt.py`, as `cargo xtask setup` and the native OCR tests make it, under
// target/scanned/). Native: `figeval captions --pdf EXCERPT --format json` with an empty cache
// (cold), then again (cached). The page: a fresh browser context opens the excerpt with the file
// input (cold), then opens it again (cached), each timed from the input's change event to the
// caption list ready. Pages per second each way, the ratios, and the caption confidences side by
// side. Target: the second opening reads no page by OCR. Exit 0 PASS, 1 FAIL, 2 cannot run.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serveDist, launch, openApp, showDocument, scratch, DIST, REPO, FIGEVAL_BIN, OCTAVE_PDF, manualMissing } from '../support.mjs';
import { ms, machine, verdict, cannotRun } from './lib.mjs';

if (!existsSync(path.join(DIST, 'ocr.mjs'))) cannotRun(`no built app with OCR at ${DIST} (trunk build --offline --release)`);
if (manualMissing()) cannotRun(manualMissing());
if (!FIGEVAL_BIN || !existsSync(FIGEVAL_BIN)) cannotRun('FIGEVAL_BIN must name a built figeval');
const target = process.env.CARGO_TARGET_DIR || path.join(REPO, 'target');
const EXCERPT = path.join(target, 'scanned', 'octave-325-370-scanned.pdf');
if (!existsSync(EXCERPT)) {
  try {
    execFileSync('/usr/bin/python3', [path.join(REPO, 'xtask/scanned_excerpt.py'), path.dirname(EXCERPT)],
      { env: { ...process.env, FIGEVAL_OCTAVE_PDF: OCTAVE_PDF }, stdio: 'inherit' });
  } catch (e) { cannotRun(`the scanned excerpt could not be made: ${e.message}`); }
}

console.log(`OCR of the scanned excerpt (46 pages) — ${machine()}\n`);

// --- native: figeval captions, cold then cached -------------------------------------------
const cache = scratch();
const captions = () => {
  const t0 = process.hrtime.bigint();
  const out = execFileSync(FIGEVAL_BIN, ['captions', '--pdf', EXCERPT, '--format', 'json'],
    { env: { ...process.env, XDG_CACHE_HOME: cache.dir }, maxBuffer: 64 << 20, encoding: 'utf8' });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, json: JSON.parse(out) };
};
const nativeCold = captions();
const nativeCached = captions();
cache.remove();
const pages = nativeCold.json.pdf_pages;
if (nativeCold.json.ocr_pages !== pages) cannotRun(`figeval read ${nativeCold.json.ocr_pages} of ${pages} pages by OCR: not the scanned excerpt`);
console.log(`native figeval captions: cold ${ms(nativeCold.ms)}, cached ${ms(nativeCached.ms)} (${nativeCached.json.ocr_cached_pages} of ${pages} from its cache)`);

// --- the page: cold, then the same file again ---------------------------------------------
const site = await serveDist();
const browser = await launch();
let pageCold; let pageCached; let workers; let inPage; const problems = [];
try {
  const page = await openApp(browser, site.url);
  await showDocument(page);
  await page.click('[data-testid=doc-view-captions]').catch(() => {});
  workers = await page.evaluate(() => Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1)));
  await page.evaluate(() => {
    window.__bench = {};
    document.addEventListener('change', (e) => { if (e.target?.dataset?.testid === 'pdf-input') window.__bench.changed = performance.now(); }, { capture: true });
  });
  // The caption list of this opening (the document area's generation moves on), ready: its view
  // need not be on show, and the list of the opening before does not count.
  const generation = () => page.evaluate(() => Number(document.querySelector('[data-testid=doc-area]')?.dataset.generation ?? 0));
  const open = async () => {
    const before = await generation();
    await page.setInputFiles('[data-testid=pdf-input]', EXCERPT);
    await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 120_000 });
    await page.waitForFunction((g) => Number(document.querySelector('[data-testid=doc-area]')?.dataset.generation) > g
      && document.querySelector('[data-testid=caption-list]')?.dataset.status === 'ready', before, { timeout: 1_800_000, polling: 100 });
    return page.evaluate(async () => ({
      ms: performance.now() - window.__bench.changed,
      status: document.querySelector('[data-testid=ocr-status] > span')?.textContent ?? '',
      counters: (await globalThis.figevalRenderer()).counters(),
    }));
  };
  pageCold = await open();
  inPage = await page.$$eval('[data-testid=caption-row]', (rs) => rs.map((r) => ({ label: r.dataset.figureRef, page: Number(r.dataset.page), confidence: Number(r.dataset.confidence) })));
  pageCached = await open();
  if (pageCached.counters.ocrPages !== pageCold.counters.ocrPages) problems.push(`the second opening read ${pageCached.counters.ocrPages - pageCold.counters.ocrPages} pages by OCR again`);
  problems.push(...(await page.evaluate(() => window.__cspViolations || [])).map((v) => `CSP: ${v}`));
  await page.context().close();
} finally {
  await browser.close();
  await site.stop();
}

const pps = (t) => pages / (t / 1000);
console.log(`the page (${workers} tesseract.js workers): cold ${ms(pageCold.ms)} — "${pageCold.status}"`);
console.log(`the page, opened again: ${ms(pageCached.ms)} — "${pageCached.status}"`);
console.log(`\npages per second: native cold ${pps(nativeCold.ms).toFixed(2)}, the page cold ${pps(pageCold.ms).toFixed(2)} (ratio page/native ${(nativeCold.ms / pageCold.ms).toFixed(2)})`);
console.log(`pages per second, cached: native ${pps(nativeCached.ms).toFixed(0)}, the page ${pps(pageCached.ms).toFixed(0)} (ratio page/native ${(nativeCached.ms / pageCached.ms).toFixed(2)})`);
const native = new Map(nativeCold.json.captions.map((c) => [`${c.label}@${c.page}`, c.confidence]));
console.log(`caption confidences, page / CLI: ${inPage.map((c) => `${c.label} ${c.confidence}/${native.has(`${c.label}@${c.page}`) ? Math.round(native.get(`${c.label}@${c.page}`)) : '—'}`).join(', ')}`);
console.log(`captions: the page ${inPage.length}, the CLI ${nativeCold.json.captions.length}`);
console.log('');
let ok = verdict('the second opening reads no page by OCR, no CSP violation', problems.length === 0, problems.join('; ') || `${pageCached.counters.ocrCached - pageCold.counters.ocrCached} pages from the cache`);
ok = verdict('the page finds the CLI\'s captions', inPage.length === nativeCold.json.captions.length, `${inPage.length} of ${nativeCold.json.captions.length}`) && ok;
process.exit(ok ? 0 : 1);
