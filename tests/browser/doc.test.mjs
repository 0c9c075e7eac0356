// The document module (web/doc, a second WebAssembly module loaded on demand): with the Octave
// manual open in the page, the in-page extraction (pdf.js's page texts, the document crate's
// caption index) finds the captions `figeval captions --pdf` finds, on the same pages; the
// dataset-check panel rates the bundled Octave dataset all ok, and a dataset with planted errors
// gets the verdicts `figeval ground` gives it; the module loads only when needed, under the page's
// Content-Security-Policy, with no axe violation in its panels; a second PDF opened while the
// first one's page texts are still being read shows no false read failure; the provenance audit
// of a report scored in the page checks the hits `figeval score --pdf` checks, with its verdict.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import {
  missing, appHarness, openApp, loadBundled, showDocument, showView, setField, scratch, figeval, OCTAVE_PDF, OCTAVE_DATASET,
  axeViolations, countByRule, startRefsearch,
} from './support.mjs';

const skip = missing({ figeval: true, manual: true }) || false;
const h = appHarness(skip);
let dir;
after(() => dir?.remove());

const MODULE = /\/doc\/figeval-doc(_bg\.wasm|\.js)$/;
// A second, small PDF from the same package as the manual: the three-page reference card.
const REFCARD_PDF = '/usr/share/doc/octave/refcard-a4.pdf';

function item(question, page, figureRef, kind) {
  return { question, expected_pages: [page], figure_ref: figureRef, kind };
}

/** Planted errors over the manual (physical page = printed page + 16 in the body). */
function planted() {
  const prose = { ...item('How can a caller ask a function for the default value of an argument?', 210,
    'Section 11.8 Default Arguments', 'locate'), tags: ['prose'] };
  return { corpus_id: 'octave-manual', items: [
    item('Which figure shows the convex hull of a simple set of points?', 855, 'Figure 30.5', 'locate'), // off by one
    item('Which figure shows a simple two-dimensional plot of a sine wave?', 316, 'Figure 15.1', 'content'), // printed 316
    item('Which figure shows a simple use of the gplot command?', 668, 'Figure 22.2', 'content'), // printed 668
    item('Which figure compares clamped and hinged periodic cubic fits?', 809, 'Figure 28.4', 'locate'), // printed 809
    item('What does the histogram of 10,000 normal numbers look like?', 336, 'Figure 15.2', 'content'), // the mention's page
    item('Which figure shows <b>the vortex</b> of the sparse solver?', 700, 'Figure 99.1', 'content'), // absent
    item('Which figure shows scattered data interpolated onto a grid?', 1200, 'Figure 30.6', 'locate'), // past the end
    prose, // a prose title on the wrong page
    item('Which figure does print -f1 write?', 427, 'Figure 1', 'content'), // mentioned, never captioned
    item('What does the sombrero plot show?', 373, 'the sombrero plot', 'content'), // names no label
    item('Which figure compares pchip and spline on a step function?', 833, 'Figure 29.1', 'locate'),
    item('Which figure shows the permuted Cholesky factorization?', 690, 'Figure 22.5', 'locate'),
    item('What shape do the unpermuted Cholesky nonzeros form?', 690, 'Figure 22.4', 'content'),
  ] };
}

/** The CLI's JSON for `args`, which must exit with `code`. */
async function cli(args, code = 0) {
  const r = await figeval(args);
  assert.equal(r.code, code, `figeval ${args.join(' ')} exited ${r.code}:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function noAxeViolation(page, state) {
  const v = await axeViolations(page);
  assert.deepEqual(countByRule(v), {}, `axe violations, ${state}:\n${JSON.stringify(v, null, 1).slice(0, 8000)}`);
}

async function noProblems(page) {
  assert.deepEqual(await page.evaluate(() => window.__cspViolations || []), [], 'no Content-Security-Policy violation');
  assert.deepEqual(page.problems, [], 'no console error or page error');
}

/** The ground rows in dataset order: [{ item, verdict, text, advice }]. */
async function groundRows(page) {
  const rows = await page.$$eval('[data-testid=ground-row]', (rs) => rs.map((r) => ({
    item: Number(r.dataset.item), verdict: r.dataset.verdict, text: r.textContent,
    question: r.querySelector('.ground-question').textContent,
    markup: r.querySelector('.ground-question').children.length,
    advice: r.querySelector('[data-testid=ground-advice]')?.textContent ?? '',
  })));
  return rows.sort((a, b) => a.item - b.item);
}

test('the in-page extraction finds the CLI\'s captions on the same pages, and the ground panel rates datasets as figeval ground does', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await loadBundled(page, 'octave-manual-figures');
  assert.equal(await page.$('[data-testid=doc-area]'), null);
  // Everything the page asked for from its start until the PDF is opened (requests are reported
  // in the order the page makes them, each before the round trip that opens the file returns).
  const beforePdf = requests.length;

  await showDocument(page);
  // The check's states as the manual is read: the expected pages come first, and their items'
  // verdicts show, marked provisional, while the rest of the document is read.
  await page.evaluate(() => {
    window.__early = null;
    const note = () => {
      const panel = document.querySelector('[data-testid=ground-panel]');
      if (window.__early || panel?.dataset.status !== 'provisional') return;
      const ok = panel.querySelectorAll('[data-testid=ground-row][data-verdict=ok][data-provisional=true]').length;
      if (ok === 33) {
        window.__early = {
          progress: panel.querySelector('.progress-text')?.textContent,
          status: panel.querySelector('[data-testid=ground-status]').textContent,
          rows: panel.querySelectorAll('[data-testid=ground-row]').length,
        };
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  await page.waitForSelector('[data-testid=ground-panel]', { timeout: 30_000 });
  await page.waitForFunction(() => window.__early !== null, null, { timeout: 60_000 });
  const early = await page.evaluate(() => window.__early);
  assert.equal(early.rows, 33, 'every item has its row while the rest is read');
  assert.match(early.status, /^Provisional: 33 of 33 items checked on the pages read so far\. The rest of the document is being read \(\d+ pages to go\)\.$/);
  const [, readEarly, ofEarly] = early.progress.match(/^(\d+) of (\d+) pages read$/);
  assert.equal(Number(ofEarly), 1158);
  assert.ok(Number(readEarly) < 1158, `the provisional verdicts come before the whole manual is read (${early.progress})`);
  assert.deepEqual(requests.slice(0, beforePdf).filter((u) => MODULE.test(u)), [], 'the document module is not loaded before a PDF is opened');
  assert.equal(requests.filter((u) => MODULE.test(u)).length, 2, 'the module (its JS and its wasm) loads once a PDF is open');
  // The page texts take seconds: the panel shows progress meanwhile.
  await page.waitForSelector('[data-testid=ground-panel][data-status=checked]', { timeout: 180_000 });
  const ms = Number(await page.getAttribute('[data-testid=doc-area]', 'data-texts-ms'));
  test.diagnostic?.(`page texts of the manual: ${ms} ms`);
  console.log(`# page texts of the manual (1158 pages): ${ms} ms`);
  assert.ok(ms > 0, 'the read time is recorded');

  // Captions: the in-page index equals the CLI's (pdftotext), label and page.
  const native = await cli(['captions', '--pdf', OCTAVE_PDF, '--format', 'json']);
  assert.equal(native.pdf_pages, 1158);
  await page.click('[data-testid=doc-view-captions]');
  await page.waitForSelector('[data-testid=caption-list][data-status=ready]');
  const inPage = await page.$$eval('[data-testid=caption-row]',
    (rs) => rs.map((r) => ({ label: r.dataset.figureRef, page: Number(r.dataset.page), text: r.querySelector('td:nth-child(3)').textContent })));
  const key = (c) => `${c.label} @ p.${c.page}`;
  assert.deepEqual(inPage.map(key), native.captions.map(key), 'the same captions on the same pages, in page order');
  const figures = inPage.filter((c) => c.label.startsWith('Figure '));
  assert.equal(figures.length, 29, 'the manual\'s 29 figure captions');
  assert.deepEqual(inPage.find((c) => c.label === 'Figure 15.1'), { label: 'Figure 15.1', page: 332, text: 'Simple Two-Dimensional Plot.' });
  const sameText = inPage.filter((c, i) => c.text === native.captions[i].text).length;
  console.log(`# caption texts equal to the CLI's: ${sameText} of ${inPage.length}`);
  await noAxeViolation(page, 'the caption list');

  // A caption's thumbnail is drawn by the viewer, and opens the page view on its page.
  const thumb = '[data-testid=caption-row][data-figure-ref="Figure 15.1"] [data-testid=page-thumb]';
  await page.waitForSelector(`${thumb} img[data-rendered="332"]`, { timeout: 60_000 });
  await page.click(thumb);
  await page.waitForSelector('[data-testid=page-view][data-page="332"]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=page-view]', { state: 'detached' });

  // The bundled Octave dataset: every item ok, as `figeval ground` says.
  await page.click('[data-testid=doc-view-check]');
  const bundled = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));
  const rows = await groundRows(page);
  assert.equal(rows.length, bundled.items.length, 'one row per item');
  assert.deepEqual(rows.map((r) => r.verdict), bundled.items.map(() => 'ok'), 'every item ok');
  assert.deepEqual(rows.map((r) => r.question), bundled.items.map((i) => i.question));
  assert.match(await page.textContent('[data-testid=ground-counts]'), /^ok 33 · moved 0 · mention_only 0 · absent 0 · beyond_end 0 · not_checked 0 · unreadable 0$/);
  await noAxeViolation(page, 'the ground panel, all ok');

  // Planted errors: the same verdicts, found pages, offset and warnings as the CLI's.
  const plantedSet = planted();
  dir ??= scratch();
  const file = dir.file('planted.json', JSON.stringify(plantedSet));
  const expected = await cli(['ground', '--dataset', file, '--pdf', OCTAVE_PDF, '--format', 'json'], 1);
  await setField(page, 'dataset-input', JSON.stringify(plantedSet, null, 2));
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=ground-row]').length === n
    && document.querySelector('[data-testid=ground-panel]')?.dataset.status === 'checked', plantedSet.items.length);
  const got = await groundRows(page);
  assert.deepEqual(got.map((r) => r.verdict), expected.items.map((i) => i.verdict), 'the CLI\'s verdicts, item by item');
  assert.deepEqual(got.map((r) => r.verdict), ['moved', 'moved', 'moved', 'moved', 'moved', 'absent', 'beyond_end',
    'moved', 'mention_only', 'not_checked', 'ok', 'ok', 'ok']);
  for (const [i, r] of got.entries()) {
    const e = expected.items[i];
    if (e.found_pages.length) assert.ok(r.text.includes(`found on p${e.found_pages.length > 1 ? 'p. ' : '.'}${e.found_pages.join(', ')}`), `item ${i + 1} names its found pages: ${r.text}`);
    if (r.verdict === 'ok') { assert.equal(r.advice, '', `item ${i + 1} is fine: no advice`); continue; }
    assert.ok(r.advice.length > 20, `item ${i + 1} (${r.verdict}) has its advice: ${r.advice}`);
    if (['moved', 'absent', 'mention_only'].includes(r.verdict)) assert.ok(r.advice.includes(e.figure_ref), `item ${i + 1}'s advice names its figure_ref: ${r.advice}`);
  }
  const pageList = (ps) => (ps.length > 1 ? `pp. ${ps.join(', ')}` : `p.${ps[0]}`);
  for (const [i, r] of got.entries()) {
    const m = expected.items[i].mention_pages;
    assert.equal(r.text.includes('mentioned on'), m.length > 0, `item ${i + 1}: mentions as the CLI finds them (${m})`);
    if (m.length) assert.ok(r.text.includes(`mentioned on ${pageList(m)}`), `item ${i + 1} mentioned on ${m}: ${r.text}`);
  }
  assert.match(got[0].advice, /^the caption of Figure 30\.5 is on p\.854, not on the expected p\.855 \(mentioned on p\.853\): set expected_pages/);
  assert.match(got[6].advice, /^expected p\.1200 is past the document's last page \(1158\)/);
  assert.equal(got[5].question, 'Which figure shows <b>the vortex</b> of the sparse solver?', 'markup in a question stays text');
  assert.equal(got[5].markup, 0);
  const rowsOrder = await page.$$eval('[data-testid=ground-row]', (rs) => rs.map((r) => r.dataset.verdict));
  assert.deepEqual(rowsOrder.slice(-3), ['ok', 'ok', 'ok'], 'findings first');
  const offset = page.locator('[data-testid=ground-offset]');
  assert.deepEqual([await offset.getAttribute('data-pages'), await offset.getAttribute('data-items')],
    [String(expected.offset.pages), String(expected.offset.items)]);
  assert.match(await offset.textContent(), /3 moved items are off by \+16 pages; the pages where they are print the expected numbers/);
  const warning = page.locator('[data-testid=ground-warning]');
  assert.equal(await warning.count(), expected.warnings.length);
  assert.equal(await warning.getAttribute('data-code'), 'shared_pages');
  assert.equal(await warning.getAttribute('data-pages'), expected.warnings[0].pages.join(' '));
  assert.ok((await warning.textContent()).includes(expected.warnings[0].message));
  await noAxeViolation(page, 'the ground panel with findings');
  await noProblems(page);
  await page.context().close();
});

test('a data-doc-view button loads the module before any PDF, and its panels say what they wait for', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.evaluate(() => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.docView = 'captions';
    b.textContent = 'Captions';
    document.body.append(b);
  });
  assert.equal(await page.isVisible('[data-testid=doc-side]'), false, 'the document tools are a view, not on show at start');
  await page.click('[data-doc-view=captions]');
  // Asking for a document view from elsewhere brings the document tools on show.
  await page.waitForSelector('[data-testid=tab-document][aria-current=page]');
  await page.waitForSelector('[data-testid=caption-list][data-status=waiting]', { state: 'visible' });
  assert.equal(requests.filter((u) => MODULE.test(u)).length, 2);
  assert.equal(await page.getAttribute('[data-testid=doc-view-captions]', 'aria-current'), 'page');
  assert.equal(await page.isVisible('[data-testid=ground-panel]'), false, 'one view on show');
  await page.waitForFunction(() => document.activeElement?.id === 'captions-h');
  // The views fold away to give the app the room; asking for a view unfolds them.
  await page.click('[data-testid=doc-fold]');
  assert.equal(await page.getAttribute('[data-testid=doc-fold]', 'aria-expanded'), 'false');
  assert.equal(await page.isVisible('[data-testid=caption-list]'), false);
  await page.click('[data-testid=doc-fold]');
  assert.equal(await page.isVisible('[data-testid=caption-list]'), true);
  await page.click('[data-testid=doc-fold]');
  await page.click('[data-doc-view=captions] >> nth=0');
  await page.waitForSelector('[data-testid=caption-list]', { state: 'visible' });
  assert.equal(await page.getAttribute('[data-testid=doc-fold]', 'aria-expanded'), 'true');
  await page.click('[data-testid=doc-view-check]');
  assert.equal(await page.getAttribute('[data-testid=ground-panel]', 'data-status'), 'waiting');
  assert.match(await page.textContent('[data-testid=ground-status]'), /Open the PDF/);
  await noAxeViolation(page, 'the module before any PDF');
  await noProblems(page);
  await page.context().close();
});

test('opening a second PDF while the first one\'s page texts are read shows no read failure, and the panels follow the new PDF', { skip: skip || (!existsSync(REFCARD_PDF) && `no reference card at ${REFCARD_PDF}`) }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await loadBundled(page, 'octave-manual-figures');
  await showDocument(page);
  await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
  await page.waitForSelector('[data-testid=ground-panel]:is([data-status=reading], [data-status=provisional])', { timeout: 60_000 });
  // Every status the two panels take from here on, and every text the ground panel shows.
  await page.evaluate(() => {
    window.__docSeen = [];
    const note = () => {
      for (const id of ['ground-panel', 'caption-list']) {
        const el = document.querySelector(`[data-testid=${id}]`);
        if (el) window.__docSeen.push(`${id}:${el.dataset.status}`);
      }
      const status = document.querySelector('[data-testid=ground-status]');
      if (status) window.__docSeen.push(`text:${status.textContent}`);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  // The manual's read is still under way (1158 pages take seconds) when the second PDF opens.
  assert.match(await page.getAttribute('[data-testid=ground-panel]', 'data-status'), /^(reading|provisional)$/);
  await page.setInputFiles('[data-testid=pdf-input]', REFCARD_PDF);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open][data-pages="3"]', { state: 'attached', timeout: 60_000 });
  await page.waitForSelector('[data-testid=ground-panel][data-status=checked]', { timeout: 60_000 });
  const seen = await page.evaluate(() => window.__docSeen);
  assert.ok(seen.some((s) => s.startsWith('ground-panel:')), 'the observer saw the ground panel');
  assert.deepEqual(seen.filter((s) => /failed|could not be read/.test(s)), [], 'no read failure was ever shown');
  // The check is of the card's three pages, not of the manual's.
  assert.match(await page.textContent('[data-testid=ground-status]'), /\(3 pages read\)/);
  await page.click('[data-testid=doc-view-captions]');
  await page.waitForSelector('[data-testid=caption-list][data-status=ready]');
  assert.equal(await page.$$eval('[data-testid=caption-row][data-figure-ref="Figure 15.1"]', (r) => r.length), 0, 'no caption of the manual is left');
  await noProblems(page);
  await page.context().close();
});

test('the provenance audit of a report scored in the page checks the hits figeval score --pdf checks, with its verdict', { skip: skip || missing({ refsearch: true }) || false, timeout: 600_000 }, async () => {
  dir ??= scratch();
  // A capture of refsearch's answers (top_k 5: the ranked windows hold every hit the CLI audits).
  const refsearch = await startRefsearch();
  const capture = dir.file('provenance.jsonl', '');
  try {
    const r = await figeval(['run', '--dataset', OCTAVE_DATASET, '--base-url', refsearch.url, '--capture', capture]);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await refsearch.stop();
  }
  const r = await figeval(['score', '--dataset', OCTAVE_DATASET, '--responses', capture, '--pdf', OCTAVE_PDF]);
  assert.equal(r.code, 0, r.stderr);
  const cliLine = /^figeval: (provenance: .*)$/m.exec(r.stderr)?.[1];
  assert.ok(cliLine, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.ok(report.provenance.checked > 0, JSON.stringify(report.provenance));

  const page = await openApp(h.browser, h.site.url);
  await loadBundled(page, 'octave-manual-figures');
  await setField(page, 'responses-input', readFileSync(capture, 'utf8'));
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=group-table]');
  await showDocument(page);
  await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
  await page.waitForSelector('[data-testid=provenance-panel][data-status=checked]', { timeout: 180_000 });
  // The same hits and the same verdict on them. The page reads its texts with pdf.js, whose
  // reading order and line breaks are not poppler's, so a few hits the CLI finds may not be
  // found in the page: at least 90% of them are.
  const counts = (line) => {
    const m = /^provenance: (\d+) of (\d+) hits checked are printed on a page they cite \(([\d.]+)\)(?:; (\d+) hits? too short)?/.exec(line);
    assert.ok(m, line);
    return { on: Number(m[1]), checked: Number(m[2]), rate: m[3], notFound: Number(m[4] ?? 0) };
  };
  const inPage = counts(await page.textContent('[data-testid=provenance-line]'));
  const native = counts(cliLine);
  console.log(`# provenance: CLI ${JSON.stringify(native)}, page ${JSON.stringify(inPage)}`);
  assert.equal(inPage.checked + inPage.notFound, native.checked + native.notFound, 'the same hits');
  assert.equal(inPage.rate, native.rate, 'the same share on a cited page');
  assert.ok(inPage.checked >= 0.9 * native.checked, `${inPage.checked} of the CLI's ${native.checked} found`);
  // The report's own items are checked too, and nothing fails on the way.
  assert.match(await page.textContent('[data-testid=ground-checked]'), /the items of the report on show/);
  await noAxeViolation(page, 'the provenance panel');

  // The same answers citing printed page labels as pages (physical page − 16 on the manual): the
  // page reads the PDF's labels through pdf.js, so its audit names the cause as the CLI does.
  const shifted = readFileSync(capture, 'utf8').split('\n').filter(Boolean).map((line) => {
    const e = JSON.parse(line);
    for (const m of e.response.matches) {
      const p = m.provenance;
      if (p && p.page_start > 16) { p.page_start -= 16; p.page_end -= 16; }
    }
    return JSON.stringify(e);
  }).join('\n');
  const shiftedFile = dir.file('provenance-labels.jsonl', `${shifted}\n`);
  const rs = await figeval(['score', '--dataset', OCTAVE_DATASET, '--responses', shiftedFile, '--pdf', OCTAVE_PDF]);
  assert.equal(rs.code, 0, rs.stderr);
  const cliShifted = /^figeval: (provenance: .*)$/m.exec(rs.stderr)?.[1] ?? '';
  assert.match(cliShifted, /\+16.*printed page labels read as physical pages/, cliShifted);
  await showView(page, 'workbench');
  await setField(page, 'responses-input', `${shifted}\n`);
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=group-table]');
  await showDocument(page);
  await page.waitForFunction(() => /printed page labels/.test(document.querySelector('[data-testid=provenance-line]')?.textContent ?? ''), null, { timeout: 60_000 });
  const labelled = await page.textContent('[data-testid=provenance-line]');
  assert.match(labelled, /\+16.*printed page labels read as physical pages/, labelled);
  await noProblems(page);
  await page.context().close();
});
