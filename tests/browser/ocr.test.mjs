// OCR in the page (contract §13.7): a scanned excerpt of the Octave manual (pages 332–337 drawn
// at 150 dpi in grey and put back together as JPEG images, `pdftoppm` + `img2pdf`, so it has no
// text layer) opened in the page. Its pages are read by tesseract.js in a worker, from files
// the page serves itself, under the page's CSP; the caption list equals `figeval captions` on
// the same file, each caption marked as read by OCR. A PDF with a text layer loads none of the
// OCR files, and the pages a dataset expects are read first. Prints pages per second through
// tesseract.js in the page against native tesseract on the same pages, one process, the same
// resolution (BENCHMARKS.md, "OCR in the page"): a figure, not an assertion.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { missing, appHarness, openApp, showDocument, showView, setField, scratch, figeval, OCTAVE_PDF } from './support.mjs';

const tools = ['pdftoppm', 'img2pdf', 'tesseract'].filter((t) => spawnSync('which', [t]).status !== 0);
const skip = missing({ figeval: true, manual: true }) || (tools.length ? `not installed: ${tools.join(', ')}` : false);
const h = appHarness(skip);
let dir;
after(() => dir?.remove());

const FIRST = 332;
const LAST = 337;
const DPI = 150; // the scan's resolution (the page draws it at 200 dpi, as the CLI does)
const OCR_FILE = /\/ocr(\.mjs|\/)/;
// A small PDF with a text layer, from the same package as the manual.
const REFCARD_PDF = '/usr/share/doc/octave/refcard-a4.pdf';

/** The scanned excerpt: pages FIRST..LAST as grey JPEG images, no text layer. */
function scannedExcerpt() {
  execFileSync('pdftoppm', ['-f', String(FIRST), '-l', String(LAST), '-r', String(DPI), '-gray', '-jpeg', OCTAVE_PDF, path.join(dir.dir, 'p')]);
  const images = readdirSync(dir.dir).filter((f) => /^p-\d+\.jpg$/.test(f)).sort().map((f) => path.join(dir.dir, f));
  assert.equal(images.length, LAST - FIRST + 1, 'one image a page');
  const pdf = path.join(dir.dir, 'octave-332-337-scanned.pdf');
  execFileSync('img2pdf', [...images, '-o', pdf]);
  return { pdf, images };
}

/** Waits until OCR has read `n` pages (the viewer's counters; polled from here, as they are async). */
async function ocrPagesRead(page, n) {
  for (let waited = 0; waited < 600_000; waited += 100) {
    const c = await page.evaluate(async () => (await globalThis.figevalRenderer()).counters());
    if (c.ocrPages >= n) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`OCR did not read ${n} pages in 10 minutes`);
}

/** The words of the strip's OCR line (without its buttons). */
const ocrLine = (page) => page.$eval('[data-testid=ocr-status] > span', (s) => s.textContent);

let made;
/** The scanned excerpt, made once for the file's tests. */
function excerpt() {
  dir ??= scratch();
  return (made ??= scannedExcerpt());
}

/** Native tesseract over the same page images, one process at a time: seconds. */
function nativeSeconds(images) {
  const started = process.hrtime.bigint();
  for (const image of images) {
    const r = spawnSync('tesseract', [image, 'stdout', '-l', 'eng', 'tsv'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    assert.equal(r.status, 0, `tesseract ${image}: ${r.stderr}`);
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

test('a scanned excerpt is read by tesseract.js in the page, and its captions are figeval captions\'', { skip }, async () => {
  const { pdf, images } = excerpt();
  const r = await figeval(['captions', '--pdf', pdf, '--format', 'json', '--no-cache']);
  assert.equal(r.code, 0, `figeval captions exited ${r.code}:\n${r.stderr}`);
  const native = JSON.parse(r.stdout);
  assert.equal(native.ocr_pages, LAST - FIRST + 1, 'figeval read every page by OCR');
  assert.ok(native.captions.length >= 2, `the excerpt has Figures 15.1 and 15.2: ${r.stdout}`);

  const page = await openApp(h.browser, h.site.url);
  await showDocument(page);
  const requests = [];
  page.on('request', (q) => requests.push(q.url()));

  // A PDF with a text layer: nothing of OCR is loaded.
  await page.setInputFiles('[data-testid=pdf-input]', REFCARD_PDF);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  await page.click('[data-testid=doc-view-captions]');
  await page.waitForSelector('[data-testid=caption-list][data-status=ready]', { timeout: 60_000 });
  assert.deepEqual(requests.filter((u) => OCR_FILE.test(u)), [], 'no OCR file loads for a PDF with a text layer');
  assert.equal(await page.$('[data-testid=ocr-status]'), null);

  // The scanned excerpt: read by OCR, with progress in the strip.
  await page.setInputFiles('[data-testid=pdf-input]', pdf);
  await page.waitForSelector('[data-testid=ocr-status][data-running=true]', { timeout: 60_000 });
  // While OCR reads, the caption list shows the captions of the pages read so far.
  await page.evaluate(() => {
    window.__soFar = [];
    window.__progress = [];
    const note = () => {
      // The check's progress line while OCR reads (the issue: "6 of 6 pages read" at OCR's 0).
      const ocr = document.querySelector('[data-testid=ocr-status][data-running=true]');
      const bar = document.querySelector('[data-testid=ground-panel] .progress-text');
      if (ocr && bar) window.__progress.push([ocr.firstChild.textContent, bar.textContent]);
      const list = document.querySelector('[data-testid=caption-list]');
      if (list?.dataset.status === 'reading') {
        window.__soFar.push([list.querySelector('[role=status]').textContent, list.querySelectorAll('[data-testid=caption-row]').length]);
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    note();
  });
  await page.waitForSelector('[data-testid=caption-list][data-status=ready]', { timeout: 600_000 });
  const soFar = await page.evaluate(() => window.__soFar);
  const partial = soFar.filter(([t]) => /^So far \d+ captions? in \d of 6 pages; OCR is reading the other \d…$/.test(t));
  assert.ok(partial.length > 0, `the list said what was read so far: ${JSON.stringify(soFar.slice(-5))}`);
  assert.ok(partial.some(([, rows]) => rows > 0), 'captions were listed before OCR was done');
  // Every progress line is true: while OCR is under way, the check never counts a page it has
  // still to read as read.
  const progress = await page.evaluate(() => window.__progress);
  assert.ok(progress.length > 0, 'the check showed its progress while OCR read');
  for (const [ocr, bar] of progress) {
    const [, read, of] = bar.match(/^(\d+) of (\d+) pages read$/) ?? [];
    assert.equal(Number(of), LAST - FIRST + 1, bar);
    assert.ok(Number(read) < LAST - FIRST + 1, `"${bar}" while OCR said "${ocr}"`);
  }
  assert.ok(progress.some(([, bar]) => bar.startsWith('0 of ')), `the check started at 0 pages read: ${JSON.stringify(progress.slice(0, 3))}`);
  const status = await page.textContent('[data-testid=ocr-status]');
  assert.match(status, new RegExp(`^${LAST - FIRST + 1} of ${LAST - FIRST + 1} pages read by OCR\\.`));
  assert.match(await page.textContent('[data-testid=caption-list] [role=status]'), /\(6 of 6 pages read by OCR\)/);

  const inPage = await page.$$eval('[data-testid=caption-row]', (rs) => rs.map((row) => ({
    label: row.dataset.figureRef, page: Number(row.dataset.page), source: row.dataset.source,
    confidence: Number(row.dataset.confidence), text: row.querySelector('td:nth-child(3)').textContent,
  })));
  const key = (c) => `${c.label} @ p.${c.page}`;
  assert.deepEqual(inPage.map(key), native.captions.map(key), 'the same captions on the same pages, in page order');
  for (const c of inPage) {
    assert.equal(c.source, 'ocr', `${key(c)} is marked as read by OCR`);
    assert.ok(c.confidence > 50 && c.confidence <= 100, `${key(c)}: confidence ${c.confidence}`);
  }
  const same = inPage.filter((c, i) => c.text === native.captions[i].text).length;
  console.log(`# caption texts equal to the CLI's: ${same} of ${inPage.length}`);
  console.log(`# confidences, page / CLI: ${inPage.map((c, i) => `${c.label} ${c.confidence}/${Math.round(native.captions[i].confidence)}`).join(', ')}`);

  // Every file came from the page's own origin (the one request elsewhere is the app asking
  // its default deployment what it serves, `GET …/health`); the OCR files came from dist/ocr/.
  const origin = new URL(h.site.url).origin;
  const elsewhere = requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.endsWith('/api/health'));
  assert.deepEqual(elsewhere, [], 'nothing fetched from elsewhere');
  const ocrFiles = requests.filter((u) => OCR_FILE.test(u)).map((u) => new URL(u).pathname);
  for (const f of ['/ocr.mjs', '/ocr/tesseract.esm.min.js', '/ocr/worker.min.js', '/ocr/lang/eng.traineddata.gz']) {
    assert.ok(ocrFiles.includes(f), `${f} was loaded: ${ocrFiles.join(' ')}`);
  }
  assert.ok(ocrFiles.some((f) => /^\/ocr\/core\/tesseract-core-(relaxedsimd-|simd-)?lstm\.wasm\.js$/.test(f)), `an LSTM core was loaded: ${ocrFiles.join(' ')}`);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations || []), [], 'no Content-Security-Policy violation');
  assert.deepEqual(page.problems, [], 'no console error or page error');

  // Pages per second: tesseract.js in the page (its workers' start included) against native;
  // tests/browser/bench/ocr.mjs measures it properly (BENCHMARKS.md).
  const c = await page.evaluate(async () => (await globalThis.figevalRenderer()).counters());
  assert.equal(c.ocrPages, LAST - FIRST + 1);
  assert.equal(c.ocrCached, 0, 'a fresh browser has nothing cached');
  const pagePps = c.ocrPages / (c.ocrWallMs / 1000);
  const nativePps = images.length / nativeSeconds(images);
  console.log(`# OCR in the page (tesseract.js, ${await page.evaluate(() => Math.min(4, navigator.hardwareConcurrency))} workers, drawn at 200 dpi): ${pagePps.toFixed(2)} pages/s, the workers' start included`);
  console.log(`# native tesseract (one process, the ${DPI} dpi images): ${nativePps.toFixed(2)} pages/s`);
});

test('Stop OCR ends the reading at once, and the caption list names the pages not read', { skip }, async () => {
  const { pdf } = excerpt();
  const pages = LAST - FIRST + 1;
  const page = await openApp(h.browser, h.site.url);
  await showDocument(page);
  await page.setInputFiles('[data-testid=pdf-input]', pdf);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  await page.click('[data-testid=doc-view-captions]');
  await page.waitForSelector('[data-testid=ocr-status][data-running=true]', { timeout: 60_000 });
  // The first page is under way (the engine takes seconds to start): stop now.
  const stopAt = Date.now();
  await page.click('[data-testid=ocr-cancel]');
  await page.waitForSelector('[data-testid=ocr-status][data-running=false]', { timeout: 120_000 });
  const stopMs = Date.now() - stopAt;
  assert.ok(stopMs < 2000, `Stop OCR is prompt: ${stopMs} ms`);
  const status = await page.textContent('[data-testid=ocr-status]');
  const m = status.match(new RegExp(`^(\\d+) of ${pages} pages read by OCR \\(stopped: (\\d+) not read\\)\\.`));
  assert.ok(m, status);
  const [read, notRead] = [Number(m[1]), Number(m[2])];
  assert.equal(read + notRead, pages, status);
  assert.ok(notRead >= 1, status);
  const c = await page.evaluate(async () => (await globalThis.figevalRenderer()).counters());
  assert.equal(c.ocrPages, read, 'no page was read by OCR after the stop');
  // The document module, started after the PDF was open, asks for the texts twice (the open
  // PDF, then its announcement): one read serves both, so nothing reads on after the stop.
  assert.equal(c.textReads, 1, 'the page texts were read once');
  await page.waitForSelector('[data-testid=caption-list][data-status=ready]', { timeout: 60_000 });
  const listed = await page.textContent('[data-testid=caption-list] [role=status]');
  const note = listed.match(new RegExp(`\\(${read} of ${pages} pages read by OCR; ${notRead} ${notRead === 1 ? 'page' : 'pages'} could not be read \\(([\\d,]+)\\)\\)`));
  assert.ok(note, listed);
  assert.equal(note[1].split(',').length, notRead, listed);
  assert.deepEqual(page.problems, [], 'no console error or page error');
  await page.context().close();
});

test('the pages the dataset expects are read by OCR before the others', { skip }, async () => {
  const { pdf } = excerpt();
  const pages = LAST - FIRST + 1;
  const expected = 5; // page 336 of the manual: read fifth in page order
  const page = await openApp(h.browser, h.site.url);
  await showView(page, 'workbench');
  await setField(page, 'dataset-input', JSON.stringify({
    corpus_id: 'octave-excerpt',
    items: [{ question: 'Which page of the excerpt is this?', figure_ref: 'p. 336', kind: 'locate', expected_pages: [expected] }],
  }));
  await showDocument(page);
  // One page at a time, so that "first" is an order.
  await page.evaluate(async () => (await globalThis.figevalRenderer()).setOcrWorkers(1));
  await page.setInputFiles('[data-testid=pdf-input]', pdf);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  await page.click('[data-testid=doc-view-captions]');
  // Stop as soon as one page is read: read in page order, page 5 would still be waiting.
  await ocrPagesRead(page, 1);
  await page.click('[data-testid=ocr-cancel]');
  await page.waitForSelector('[data-testid=ocr-status][data-running=false]', { timeout: 120_000 });
  await page.waitForSelector('[data-testid=caption-list][data-status=ready]', { timeout: 60_000 });
  const listed = await page.textContent('[data-testid=caption-list] [role=status]');
  const note = listed.match(new RegExp(`\\((\\d+) of ${pages} pages read by OCR; \\d+ pages? could not be read \\(([\\d,]+)\\)\\)`));
  assert.ok(note, listed);
  const read = Number(note[1]);
  const notRead = note[2].split(',').map(Number);
  assert.ok(read >= 1 && read < expected, `stopped before page order would reach page ${expected}: ${listed}`);
  assert.ok(!notRead.includes(expected), `the expected page was read first: ${listed}`);
  assert.deepEqual(notRead, Array.from({ length: pages }, (_, i) => i + 1).filter((p) => p !== expected).slice(read - 1),
    `then the others in page order: ${listed}`);
  assert.deepEqual(page.problems, [], 'no console error or page error');
  await page.context().close();
});

test('OCR kept in this browser: a stopped OCR resumes where it stopped, and a second opening reads no page again', { skip, timeout: 900_000 }, async () => {
  const { pdf } = excerpt();
  const pages = LAST - FIRST + 1;
  const page = await openApp(h.browser, h.site.url);
  const counters = () => page.evaluate(async () => (await globalThis.figevalRenderer()).counters());
  await showDocument(page);
  await page.setInputFiles('[data-testid=pdf-input]', pdf);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  await page.click('[data-testid=doc-view-captions]');
  await ocrPagesRead(page, 1);
  await page.click('[data-testid=ocr-cancel]');
  await page.waitForSelector('[data-testid=ocr-status][data-running=false]', { timeout: 60_000 });
  const stopped = (await ocrLine(page)).match(new RegExp(`^(\\d+) of ${pages} pages read by OCR \\(stopped: (\\d+) not read\\)\\.`));
  assert.ok(stopped, 'stopped');
  const readBefore = Number(stopped[1]);
  assert.ok(await page.isVisible('[data-testid=ocr-resume]'), 'a stopped OCR offers to resume');
  // A page under way at the stop ends in its worker and is kept too: wait for its end.
  await page.waitForTimeout(1000);
  const before = await counters();

  // Resume: the pages read before the stop come from the cache; OCR reads only the others.
  await page.click('[data-testid=ocr-resume]');
  await page.waitForSelector('[data-testid=ocr-status][data-running=true]', { timeout: 60_000 });
  await page.waitForSelector('[data-testid=caption-list][data-status=ready]', { timeout: 600_000 });
  const resumed = await ocrLine(page);
  const m = resumed.match(new RegExp(`^${pages} of ${pages} pages read by OCR\\. (\\d+) of them from this browser's cache\\.$`));
  assert.ok(m, resumed);
  assert.ok(Number(m[1]) >= readBefore, `the ${readBefore} pages read before the stop came from the cache: ${resumed}`);
  const after = await counters();
  assert.equal(after.ocrPages - before.ocrPages, pages - Number(m[1]), 'OCR read only the pages not kept');
  assert.equal(await page.isVisible('[data-testid=ocr-resume]'), false);

  // A second opening of the same file: every page from the cache, none read again, in moments.
  const t0 = Date.now();
  await page.setInputFiles('[data-testid=pdf-input]', pdf);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  await page.waitForFunction((n) => document.querySelector('[data-testid=ocr-status] > span')?.textContent === `${n} of ${n} pages read by OCR. ${n} of them from this browser's cache.`, pages, { timeout: 60_000 });
  await page.waitForSelector('[data-testid=caption-list][data-status=ready]', { timeout: 60_000 });
  console.log(`# the excerpt opened again: every page from this browser's cache after ${Date.now() - t0} ms`);
  const again = await counters();
  assert.equal(again.ocrPages, after.ocrPages, 'no page was read by OCR again');
  assert.match(await page.textContent('[data-testid=caption-list] [role=status]'), /\(6 of 6 pages read by OCR\)/);
  assert.deepEqual(page.problems, [], 'no console error or page error');
  await page.context().close();
});

test('a page past its OCR time limit is unreadable, never a hang, and the list says which', { skip }, async () => {
  const { pdf } = excerpt();
  const pages = LAST - FIRST + 1;
  const page = await openApp(h.browser, h.site.url);
  await showDocument(page);
  // The limit is set before the PDF opens (the document module reads its texts at once).
  await page.evaluate(async () => (await globalThis.figevalRenderer()).setOcrPageLimit(1));
  await page.setInputFiles('[data-testid=pdf-input]', pdf);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  await page.click('[data-testid=doc-view-captions]');
  await page.waitForSelector('[data-testid=caption-list][data-status=ready]', { timeout: 120_000 });
  assert.match(await page.textContent('[data-testid=ocr-status]'), new RegExp(`^0 of ${pages} pages read by OCR\\.`));
  const all = Array.from({ length: pages }, (_, i) => i + 1).join(',');
  assert.match(await page.textContent('[data-testid=caption-list] [role=status]'),
    new RegExp(`^0 captions in ${pages} pages \\(0 of ${pages} pages read by OCR; ${pages} pages could not be read \\(${all}\\)\\)\\.$`));
  assert.deepEqual(page.problems, [], 'no console error or page error');
  await page.context().close();
});
