// The page opens the PDF: the Octave manual from a file and from a URL, thumbnails
// of cited and expected pages drawn on the right pages, the page view, the `pdf=` offer that
// fetches nothing until the user says yes, a file that is not a PDF, a drawing set opened at
// once from a folder (contract §1.5), all under the page's
// Content-Security-Policy. Real Chromium, the real manual; the reference renders are poppler's
// `pdftoppm`, run in the same test.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import {
  REPO, missing, serveDist, appHarness, openApp, loadBundled, showDocument, setField, searchBody, scratch, OCTAVE_PDF, OCTAVE_DATASET,
  axeViolations, countByRule, watchProblems,
} from './support.mjs';

const skip = missing({ manual: true })
  || (!existsSync('/usr/bin/pdftoppm') && 'no pdftoppm (poppler-utils) for the reference renders') || false;
const GRID = [12, 16]; // the signature of a page: mean darkness on a 12 × 16 grid
const h = appHarness(skip);
let files, dir;

before(async () => {
  if (skip) return;
  dir = scratch();
  symlinkSync(path.resolve(OCTAVE_PDF), path.join(dir.dir, 'octave.pdf'));
  dir.file('not-a.pdf', 'this is not a PDF at all\n');
  files = await serveDist(dir.dir); // another origin, with CORS, as a real host of the manual
});
after(async () => {
  await files?.stop();
  dir?.remove();
});

/** A page's signature from pdftoppm: a grayscale render, averaged on GRID. */
function popplerSignature(pageNo) {
  const pgm = execFileSync('pdftoppm', ['-gray', '-r', '24', '-f', String(pageNo), '-l', String(pageNo), OCTAVE_PDF]);
  // P5 <w> <h> <max>\n<bytes>
  const header = pgm.subarray(0, 40).toString('latin1').split(/\s+/);
  const [w, h] = [Number(header[1]), Number(header[2])];
  const start = pgm.length - w * h;
  const px = (x, y) => pgm[start + y * w + x];
  return signature(w, h, px);
}

function signature(w, h, px) {
  const [gw, gh] = GRID;
  const out = [];
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      let sum = 0; let n = 0;
      for (let y = Math.floor(gy * h / gh); y < Math.floor((gy + 1) * h / gh); y++) {
        for (let x = Math.floor(gx * w / gw); x < Math.floor((gx + 1) * w / gw); x++) { sum += 255 - px(x, y); n++; }
      }
      out.push(n ? sum / n : 0);
    }
  }
  return out;
}

function correlation(a, b) {
  const mean = (v) => v.reduce((s, x) => s + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let ab = 0; let aa = 0; let bb = 0;
  for (let i = 0; i < a.length; i++) { ab += (a[i] - ma) * (b[i] - mb); aa += (a[i] - ma) ** 2; bb += (b[i] - mb) ** 2; }
  return ab / Math.sqrt(aa * bb || 1);
}

/** The rendered thumbnail of `pageNo` in the page: its grayscale pixels on GRID, and its dark share. */
async function thumbSignature(page, pageNo) {
  const sel = `[data-testid=page-thumb][data-page="${pageNo}"] img[data-rendered="${pageNo}"]`;
  await page.waitForSelector(sel, { timeout: 60_000 });
  const { w, h, gray } = await page.$eval(sel, async (img) => {
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const g = [];
    for (let i = 0; i < d.length; i += 4) g.push(Math.round((d[i] + d[i + 1] + d[i + 2]) / 3));
    return { w: c.width, h: c.height, gray: g };
  });
  const dark = gray.filter((v) => v < 200).length / gray.length; // ink: clearly not paper
  return { sig: signature(w, h, (x, y) => gray[y * w + x]), dark, w, h };
}

/** Scores the bundled Octave dataset against answers citing `cite(item)` ([start, end] pairs). */
async function octaveReport(page, cite) {
  await loadBundled(page, 'octave-manual-figures');
  const dataset = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));
  const text = dataset.items.map((it) => JSON.stringify(searchBody(it.question, cite(it)))).join('\n');
  await setField(page, 'responses-input', text);
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=report-view]', { state: 'visible' });
  return dataset;
}

async function openPdfFile(page) {
  await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
}

/** axe-core finds no violation with the PDF open. */
async function noAxeViolation(page, state) {
  const v = await axeViolations(page);
  assert.deepEqual(countByRule(v), {}, `axe violations, ${state}:\n${JSON.stringify(v, null, 1).slice(0, 8000)}`);
}

function noProblems(assert, page, requests) {
  const csp = page.evaluate(() => window.__cspViolations || []);
  return csp.then((v) => {
    assert.deepEqual(v, [], 'no Content-Security-Policy violation');
    assert.deepEqual(page.problems, [], 'no console error or page error');
    // Besides its own files the page only asks the deployment what it serves (GET …/health).
    if (requests) assert.deepEqual(requests.filter((u) => !u.startsWith(h.site.url) && !u.endsWith('/api/health')), [], 'the page fetched nothing elsewhere');
  });
}

test('a PDF file opens in the page and its thumbnails show the cited and expected pages', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  // Before a PDF is opened, the renderer is not loaded.
  const dataset = await octaveReport(page, (it) => [[it.expected_pages[0], it.expected_pages[0]], [500, 503]]);
  assert.equal(requests.filter((u) => /pdf(view|\.min|\.worker)/.test(u)).length, 0, 'no renderer before a PDF is opened');
  await openPdfFile(page);
  assert.equal(await page.getAttribute('[data-testid=pdf-panel]', 'data-pages'), '1158');
  assert.match(await page.textContent('[data-testid=pdf-panel]'), /never uploaded and never put in a share link/);
  const uploads = requests.filter((u) => u.endsWith('.pdf'));
  assert.deepEqual(uploads, [], 'the file was read in the page, not sent or fetched');

  // The first item expects p.349 (Figure 15.3); its answer cites 349 and then 500–503.
  const first = dataset.items[0];
  assert.deepEqual(first.expected_pages, [349]);
  await page.click('[data-testid=item-row] >> nth=0 >> [data-testid=item-toggle]');
  const win = page.locator('[data-testid=ranked-window]').first();
  await win.waitFor();
  const thumbs = await win.locator('[data-testid=page-thumb]').evaluateAll((els) => els.map((e) => [e.dataset.page, e.textContent.trim()]));
  assert.deepEqual(thumbs, [['349', 'p.349'], ['349', 'p.349'], ['500', 'p.500 +3']],
    'the expected page, then each match\'s first cited page with +N for a wider span');
  const alt = await win.locator('[data-testid=page-thumb][data-page="500"] img').getAttribute('alt');
  assert.match(alt, /^page 500 .*and 3 more, cited at rank 2$/, 'the thumbnail says what it shows');

  // Each thumbnail is non-blank and is the right page: it looks like poppler's render of that
  // page more than like the pages beside it.
  for (const p of [349, 500]) {
    const t = await thumbSignature(page, p);
    assert.ok(t.w >= 150 && t.h > t.w, `thumbnail of p.${p} is a portrait page image (${t.w}×${t.h})`);
    assert.ok(t.dark > 0.01, `thumbnail of p.${p} is not blank (${(t.dark * 100).toFixed(2)} % dark)`);
    const own = correlation(t.sig, popplerSignature(p));
    for (const other of [p - 1, p + 1]) {
      const near = correlation(t.sig, popplerSignature(other));
      assert.ok(own > near + 0.05, `thumbnail of p.${p} matches p.${p} (r=${own.toFixed(3)}) better than p.${other} (r=${near.toFixed(3)})`);
    }
    assert.ok(own > 0.8, `thumbnail of p.${p} matches poppler's render (r=${own.toFixed(3)})`);
  }
  await noAxeViolation(page, 'report with the PDF open and a ranked window of thumbnails');
  await noProblems(assert, page, requests);
  await page.context().close();
});

test('a thumbnail opens the page view with zoom, page number, printed label and previous/next', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await octaveReport(page, (it) => [[it.expected_pages[0], it.expected_pages[0]]]);
  await openPdfFile(page);
  await page.click('[data-testid=item-row] >> nth=0 >> [data-testid=item-toggle]');
  await page.click('[data-testid=ranked-window] [data-testid=page-thumb][data-page="349"] >> nth=0');
  const view = page.locator('[data-testid=page-view]');
  await view.waitFor();
  assert.equal(await view.getAttribute('data-page'), '349');
  assert.match(await view.locator('h2').textContent(), /^Page 349 of 1158/);
  await page.waitForSelector('[data-testid=page-view-image][data-page="349"]');
  const w0 = await page.$eval('[data-testid=page-view-image]', (i) => i.naturalWidth);
  await page.click('[data-testid=zoom-in]');
  await page.waitForFunction((w) => {
    const i = document.querySelector('[data-testid=page-view-image]');
    return i && i.naturalWidth > w;
  }, w0);
  await page.click('[data-testid=page-next]');
  await page.waitForSelector('[data-testid=page-view][data-page="350"] [data-testid=page-view-image][data-page="350"]');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('[data-testid=page-view][data-page="349"]');
  // The printed label is the document's own, when it has one (pdf.js reads /PageLabels).
  const labels = await page.evaluate(async () => (await globalThis.figevalRenderer()).counters());
  assert.ok(labels.rendered >= 1, 'the renderer drew the thumbnail');
  const label = await view.getAttribute('data-label');
  if (label) assert.match(await view.locator('h2').textContent(), new RegExp(`printed page ${label}$`));
  await noAxeViolation(page, 'page view open');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=page-view]', { state: 'detached' });
  await noProblems(assert, page);
  await page.context().close();
});

test('a thumbnail hovered or focused shows its page larger beside it, until the pointer or focus leaves or Escape', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await octaveReport(page, (it) => [[it.expected_pages[0], it.expected_pages[0]], [500, 503]]);
  await openPdfFile(page);
  await page.click('[data-testid=item-row] >> nth=0 >> [data-testid=item-toggle]');
  const thumb = page.locator('[data-testid=ranked-window] [data-testid=window-row] [data-testid=page-thumb][data-page="500"]');
  await thumb.locator('img[data-rendered="500"]').waitFor({ timeout: 60_000 });
  const preview = page.locator('[data-testid=thumb-preview]');
  assert.equal(await preview.count(), 0);

  await thumb.hover();
  await preview.waitFor();
  assert.equal(await preview.getAttribute('data-page'), '500');
  assert.equal(await preview.getAttribute('aria-hidden'), 'true', 'a picture only: the thumbnail says what it shows');
  assert.match(await preview.textContent(), /^page 500/);
  await page.waitForFunction(() => document.querySelector('[data-testid=thumb-preview] img')?.complete);
  const [img, small, big] = await Promise.all([
    preview.locator('img').evaluate((i) => ({ natural: i.naturalWidth, shown: Math.round(i.getBoundingClientRect().width) })),
    thumb.locator('img').boundingBox(),
    preview.boundingBox(),
  ]);
  assert.equal(img.natural, 680, 'drawn at twice its width');
  assert.ok(img.shown >= 4 * small.width, `the preview (${img.shown} px) is four times the thumbnail (${small.width} px) or more`);
  assert.ok(big.x >= small.x + small.width || big.x + big.width <= small.x, 'beside the thumbnail, not over it');
  const view = page.viewportSize();
  assert.ok(big.x >= 0 && big.y >= 0 && big.x + big.width <= view.width && big.y + big.height <= view.height, 'inside the window');
  await noAxeViolation(page, 'a thumbnail preview on show');

  await page.mouse.move(2, 2);
  await preview.waitFor({ state: 'detached' });
  // The keyboard: focus shows it, Escape hides it, and Enter still opens the page view.
  await thumb.focus();
  await preview.waitFor();
  await page.keyboard.press('Escape');
  await preview.waitFor({ state: 'detached' });
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=page-view][data-page="500"]').waitFor();
  assert.equal(await preview.count(), 0, 'no preview over the page view');
  await page.keyboard.press('Escape');
  await noProblems(assert, page);
  await page.context().close();
});

test('a pdf= link offers its URL and fetches it only after the user says yes', { skip }, async () => {
  const pdfUrl = `${files.url}octave.pdf`;
  const context = await h.browser.newContext();
  const page = await context.newPage();
  watchProblems(page);
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation',
    (e) => (window.__cspViolations ||= []).push(`${e.violatedDirective} ${e.blockedURI}`)));
  const fetched = [];
  page.on('request', (r) => { if (r.url().startsWith(files.url)) fetched.push(r.url()); });
  await page.goto(`${h.site.url}#pdf=${encodeURIComponent(pdfUrl)}`);
  const offer = page.locator('[data-testid=pdf-offer]');
  await offer.waitFor();
  assert.match(await offer.textContent(), new RegExp(pdfUrl.replace(/[.?*+^$()|[\]\\]/g, '\\$&')));
  await noAxeViolation(page, 'a pdf= offer on show');
  // The offer on show is the page's answer to `pdf=`: a page that fetched on its own would have
  // asked by then. What was asked for up to the click:
  assert.deepEqual(fetched, [], 'nothing is fetched before the user says yes');
  await page.click('[data-testid=pdf-offer-load]');
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  assert.deepEqual(fetched, [pdfUrl], 'fetched once, after the yes');
  assert.equal(await page.getAttribute('[data-testid=pdf-panel]', 'data-pages'), '1158');
  await noProblems(assert, page);
  await context.close();
});

test('a file that is not a PDF, and a URL that answers 404, get a message that says so', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await page.setInputFiles('[data-testid=pdf-input]', path.join(dir.dir, 'not-a.pdf'));
  await page.waitForSelector('[data-testid=pdf-panel][data-status=failed]', { state: 'attached', timeout: 60_000 });
  assert.match(await page.textContent('[data-testid=pdf-status]'), /^not-a\.pdf could not be opened: .*not a PDF/);
  await showDocument(page);
  await page.fill('[data-testid=pdf-url]', `${files.url}missing.pdf`);
  await page.click('[data-testid=load-pdf-url]');
  await page.waitForFunction(() => /missing\.pdf answered HTTP 404/.test(document.querySelector('[data-testid=pdf-status]')?.textContent || ''));
  assert.equal(await page.getAttribute('[data-testid=pdf-panel]', 'data-status'), 'failed');
  // The renderer's own console error for the broken file is expected; a CSP violation is not.
  assert.deepEqual(await page.evaluate(() => window.__cspViolations || []), []);
  await page.context().close();
});

test('a broken PDF (encrypted, empty, cut short, lying about its pages) gets a message that says what is wrong, and the page goes on', { skip }, async () => {
  const bytes = readFileSync(OCTAVE_PDF);
  const broken = {
    'password.pdf': readFileSync(path.join(REPO, 'tests', 'fixtures', 'password.pdf')),
    'empty.pdf': Buffer.alloc(0),
    // The manual's first 200 KB: its header and first objects, no cross-reference table.
    'cut.pdf': bytes.subarray(0, 200_000),
    // A one-page PDF whose page tree claims a million pages.
    'lying.pdf': Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1000000>>endobj\n'
      + '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R/Size 4>>\n%%EOF\n'),
  };
  const page = await openApp(h.browser, h.site.url);
  await showDocument(page);
  const seen = {};
  for (const [name, data] of Object.entries(broken)) {
    await page.setInputFiles('[data-testid=pdf-input]', { name, mimeType: 'application/pdf', buffer: data });
    await page.waitForFunction((n) => {
      const panel = document.querySelector('[data-testid=pdf-panel]');
      const status = document.querySelector('[data-testid=pdf-status]')?.textContent || '';
      return status.includes(n) && ['failed', 'open'].includes(panel.dataset.status);
    }, name, { timeout: 60_000 }).catch(async (e) => {
      throw new Error(`${name}: ${await page.getAttribute('[data-testid=pdf-panel]', 'data-status')} "${await page.textContent('[data-testid=pdf-status]')}" (${e.message.split('\n')[0]})`);
    });
    seen[name] = [await page.getAttribute('[data-testid=pdf-panel]', 'data-status'), await page.textContent('[data-testid=pdf-status]')];
  }
  console.log(`# ${JSON.stringify(seen)}`);
  // One page is "1 page", never "1 pages".
  assert.ok(Object.values(seen).every(([, t]) => !/\b1 pages\b/.test(t)));
  assert.deepEqual(seen['password.pdf'], ['failed', 'password.pdf could not be opened: the PDF is encrypted (password protected): open an unprotected copy']);
  assert.deepEqual(seen['empty.pdf'], ['failed', 'empty.pdf could not be opened: the file is empty (0 bytes)']);
  assert.deepEqual(seen['cut.pdf'], ['failed', 'cut.pdf could not be opened: the PDF is cut short (it has no %%EOF end marker): download it again']);
  for (const name of ['lying.pdf']) {
    // pdf.js may recover what it can: then it says how many pages it found; else it says why not.
    const [status, text] = seen[name];
    if (status === 'failed') assert.match(text, new RegExp(`^${name.replace('.', '\\.')} could not be opened: .{10,}`));
    else assert.match(text, new RegExp(`^open: ${name.replace('.', '\\.')} — \\d+ pages?$`), `${name}: ${text}`);
  }
  // The page goes on: the manual opens after them.
  await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open][data-pages="1158"]', { state: 'attached', timeout: 60_000 });
  assert.deepEqual(await page.evaluate(() => window.__cspViolations || []), []);
  await page.context().close();
});

test('the thumbnail cache keeps the most recently shown pages up to its limit, and draws an evicted page again', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await openPdfFile(page);
  const r = await page.evaluate(async () => {
    const renderer = await globalThis.figevalRenderer();
    const box = document.createElement('div');
    document.body.prepend(box);
    // Thumbnails of `pages`, all on screen at once, until each is drawn; then the counters.
    const show = async (pages) => {
      const imgs = pages.map((p) => {
        const img = document.createElement('img');
        img.dataset.thumb = String(p);
        img.width = 4; img.height = 4;
        box.append(img);
        return img;
      });
      window.scrollTo(0, 0);
      imgs.forEach((img) => renderer.watch(img));
      await new Promise((resolve, reject) => {
        const tick = () => {
          const failed = imgs.find((img) => img.dataset.failed);
          if (failed) reject(new Error(`p.${failed.dataset.thumb}: ${failed.dataset.failed}`));
          else if (imgs.every((img) => img.dataset.rendered === img.dataset.thumb)) resolve();
          else setTimeout(tick, 10);
        };
        tick();
      });
      imgs.forEach((img) => img.remove());
      return renderer.counters();
    };
    const start = renderer.counters();
    const early = Array.from({ length: 20 }, (_, i) => 100 + i);
    const late = Array.from({ length: start.cacheLimit }, (_, i) => 200 + i);
    const first = await show(early);
    const full = await show(late); // fills the cache on its own: every early page is evicted
    const cached = await show(late.slice(0, 10));
    const evicted = await show(early.slice(0, 10));
    return { start, first, full, cached, evicted };
  });
  const { start, first, full, cached, evicted } = r;
  assert.equal(start.cacheLimit, 240, 'the limit web/pdfview.mjs states');
  assert.equal(first.rendered - start.rendered, 20);
  assert.equal(first.cached, 20);
  assert.equal(full.rendered - first.rendered, start.cacheLimit, 'each page drawn once');
  assert.equal(full.cached, start.cacheLimit, 'the cache holds no more than its limit');
  assert.equal(cached.rendered, full.rendered, 'pages still in the cache are not drawn again');
  assert.equal(cached.cacheHits - full.cacheHits, 10, 'they come from the cache');
  assert.equal(evicted.rendered - cached.rendered, 10, 'evicted pages are drawn again');
  assert.equal(evicted.cacheHits, cached.cacheHits);
  assert.equal(evicted.cached, start.cacheLimit);
  await noProblems(assert, page);
  await page.context().close();
});

test('the last PDF opened is kept in this browser and offered again, until forgotten with one click', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  assert.equal(await page.isHidden('[data-testid=pdf-reopen]'), true, 'nothing to offer the first time');
  await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  const pages = await page.getAttribute('[data-testid=pdf-panel]', 'data-pages');
  // It is written after the open: wait for the name boot.js reads at start.
  await page.waitForFunction(() => localStorage.getItem('figeval.lastPdf') === 'octave.pdf', null, { timeout: 30_000 });

  // A reload offers it, by name; Reopen opens the same document from IndexedDB, no file picked.
  await page.reload();
  await page.waitForSelector('[data-testid=pdf-reopen]:not([hidden])');
  assert.equal(await page.textContent('[data-testid=pdf-reopen] [data-pdf-reopen-name]'), 'octave.pdf');
  assert.equal(await page.getAttribute('[data-testid=pdf-panel]', 'data-status'), 'none', 'not opened until asked');
  const requests = [];
  page.on('request', (q) => requests.push(q.url()));
  await page.click('[data-testid=pdf-reopen-load]');
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  assert.equal(await page.getAttribute('[data-testid=pdf-panel]', 'data-pages'), pages);
  assert.equal(await page.isHidden('[data-testid=pdf-reopen]'), true);
  const origin = new URL(h.site.url).origin;
  assert.deepEqual(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.endsWith('/api/health')), [], 'nothing leaves the page');

  // Forget it: the offer goes, and so does the stored copy.
  await page.reload();
  await page.click('[data-testid=pdf-reopen-forget]');
  assert.equal(await page.isHidden('[data-testid=pdf-reopen]'), true);
  await page.reload();
  await page.waitForSelector('#app *', { state: 'attached' });
  assert.equal(await page.isHidden('[data-testid=pdf-reopen]'), true, 'nothing offered after Forget');
  const kept = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
  assert.deepEqual(kept.filter((n) => n === 'figeval'), [], 'the stored PDF is gone');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the page view fits a phone\'s width, and zooms past it on request', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await page.setViewportSize({ width: 390, height: 844 });
  await octaveReport(page, (it) => [[it.expected_pages[0], it.expected_pages[0]]]);
  await openPdfFile(page);
  await page.click('[data-testid=item-row] >> nth=0 >> [data-testid=item-toggle]');
  await page.click('[data-testid=ranked-window] [data-testid=page-thumb][data-page="349"] >> nth=0');
  await page.waitForSelector('[data-testid=page-view-image][data-page="349"]');
  const fit = () => page.$eval('[data-testid=page-view]', (d) => {
    const body = d.querySelector('.page-view-body');
    return { right: Math.round(d.getBoundingClientRect().right), window: innerWidth,
      image: Number(d.querySelector('[data-testid=page-view-image]').getAttribute('width')), scrolls: body.scrollWidth > body.clientWidth + 1 };
  });
  const first = await fit();
  assert.ok(first.right <= first.window && !first.scrolls, `the page is seen whole: ${JSON.stringify(first)}`);
  assert.equal(await page.textContent('[data-testid=zoom]'), `${first.image} px`);
  assert.equal(await page.isDisabled('[data-testid=zoom-out]'), true, 'the phone width is the smallest zoom');
  await page.click('[data-testid=zoom-in]');
  await page.waitForFunction(() => document.querySelector('[data-testid=page-view-image]')?.getAttribute('width') === '420');
  assert.equal((await fit()).scrolls, true, 'a closer look scrolls inside the view');
  await noAxeViolation(page, 'page view on a phone');
  await page.context().close();
});

test('a drawing set opens at once: a folder\'s PDFs by their paths, a broken one named, the rest left aside; another is shown on request; two dropped open together; a new opening closes the set', { skip: skip || (!existsSync('/usr/bin/qpdf') && 'no qpdf to cut the sheets') || false, timeout: 120_000 }, async () => {
  // A folder as a drawing set arrives: sheets in subfolders, a file that is no PDF, a broken PDF.
  const set = path.join(dir.dir, 'set');
  for (const [name, pages] of [['A-101.pdf', '332'], ['sub/A-102.pdf', '336-337']]) {
    execFileSync('mkdir', ['-p', path.dirname(path.join(set, name))]);
    execFileSync('qpdf', ['--empty', '--pages', OCTAVE_PDF, pages, '--', path.join(set, name)]);
  }
  dir.file('set/notes.txt', 'not a sheet\n');
  dir.file('set/A-103.pdf', '%PDF-1.4 cut short');
  const page = await openApp(h.browser, h.site.url);
  await showDocument(page);
  await page.setInputFiles('[data-testid=pdf-folder]', set);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  const panel = () => page.$eval('[data-testid=pdf-panel]', (p) => ({ ...p.dataset }));
  assert.deepEqual(JSON.parse((await panel()).names), ['set/A-101.pdf', 'set/sub/A-102.pdf'], 'the PDFs by their paths in the folder, in name order');
  assert.equal((await panel()).name, 'set/A-101.pdf', 'the first is on show');
  assert.match(await page.textContent('[data-testid=pdf-status]'),
    /^open: 2 PDFs — set\/A-101\.pdf \(1 page\), set\/sub\/A-102\.pdf \(2 pages\) · could not be opened: set\/A-103\.pdf \(.+\) · 1 other file was left aside: not PDFs$/);
  // Another PDF of the set on show: the strip and the caption list follow it; the set stays.
  const set1 = (await panel()).set;
  await page.selectOption('[data-testid=pdf-shown]', 'set/sub/A-102.pdf');
  await page.waitForSelector('[data-testid=pdf-panel][data-name="set/sub/A-102.pdf"][data-pages="2"]', { state: 'attached' });
  assert.equal((await panel()).set, set1, 'the same set');
  await page.click('[data-testid=doc-view-captions]');
  await page.waitForFunction(() => document.querySelector('[data-testid=caption-list]')?.dataset.status === 'ready'
    && /A-102\.pdf/.test(document.querySelector('[data-testid=caption-list-of]')?.textContent ?? ''), null, { timeout: 30_000 });
  const captions = await page.$$eval('[data-testid=caption-row]', (rs) => rs.map((r) => [r.dataset.figureRef, Number(r.dataset.page)]));
  assert.deepEqual(captions, [['Figure 15.2', 2]], 'the captions of the PDF on show (the manual\'s pages 336–337)');
  // Two PDFs dropped on the strip together open together.
  const sheets = ['A-101.pdf', 'sub/A-102.pdf'].map((n) => [path.basename(n), readFileSync(path.join(set, n)).toString('base64')]);
  await page.evaluate((files) => {
    const dt = new DataTransfer();
    for (const [name, b64] of files) dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type: 'application/pdf' }));
    document.querySelector('[data-testid=pdf-panel]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, sheets);
  await page.waitForFunction(() => document.querySelector('[data-testid=pdf-panel]').dataset.names === '["A-101.pdf","A-102.pdf"]', null, { timeout: 30_000 });
  assert.notEqual((await panel()).set, set1, 'a new set');
  // A single PDF opened after it closes the set: nothing of it is left in the strip.
  await page.setInputFiles('[data-testid=pdf-input]', path.join(set, 'A-101.pdf'));
  await page.waitForFunction(() => document.querySelector('[data-testid=pdf-panel]').dataset.names === '["A-101.pdf"]', null, { timeout: 30_000 });
  assert.equal(await page.locator('[data-testid=pdf-shown]').count(), 0, 'no choice of one');
  // Files that are none of them PDFs open nothing, and close what was open.
  dir.file('notes2.txt', 'nor this\n');
  await page.setInputFiles('[data-testid=pdf-input]', [path.join(set, 'notes.txt'), path.join(dir.dir, 'notes2.txt')]);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=failed]', { state: 'attached' });
  assert.equal(await page.textContent('[data-testid=pdf-status]'), 'None of the 2 files chosen is a PDF (named .pdf).');
  assert.equal((await panel()).names, '[]');
  // pdf.js's own console lines about the broken sheet are expected; nothing else is.
  assert.deepEqual(page.problems.filter((p) => !/Invalid PDF|InvalidPDFException|Warning/i.test(p)), []);
  await page.context().close();
});
