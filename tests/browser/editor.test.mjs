// The dataset editor: with the Octave manual open in the page, two locate items
// come from the caption list, one content item and one prose item (its page picked by
// thumbnail, its figure_ref a section heading found on that page) are written in the editor; the
// rules and warnings show as you type; the exported file passes `figeval validate` and
// `figeval ground --pdf`. The draft survives a reload. axe finds nothing in the editor's states.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  missing, appHarness, openApp, showDocument, scratch, figeval, axeViolations, countByRule, OCTAVE_PDF, NASA_DATASET,
} from './support.mjs';

const skip = missing({ figeval: true, manual: true }) || false;
const h = appHarness(skip);

const LOCATE = [
  ['Figure 15.3', 349, 'Which figure marks the spread of each data point with vertical whiskers?'],
  ['Figure 15.4', 353, 'Which figure draws a curve against angle and radius?'],
];
const CONTENT = ['Figure 30.1', 843, 'In the triangulation of points marked with red stars, roughly where is the vertex shared by the most triangles?'];
const PROSE = ['Section 8.7 Increment Operators', 187, 'If x equals 2, what does x++ return?'];

/** Opens the manual in the page and the editor, and waits for the caption list. */
async function openManualAndEditor(page) {
  await showDocument(page);
  await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  await page.click('[data-testid=tab-editor]');
  await page.waitForSelector('[data-testid=editor-panel]', { state: 'visible', timeout: 30_000 });
}

async function showView(page, name) {
  await page.click(`[data-testid=doc-view-${name}]`);
}

/** The items of the editor's table as [question, pages, figure_ref, kind, prose]. */
function items(page) {
  return page.$$eval('[data-testid=editor-item]', (rows) => rows.map((r) => [
    r.querySelector('[data-testid=editor-question]').value,
    r.querySelector('[data-testid=editor-pages]').value,
    r.querySelector('[data-testid=editor-figure-ref]').value,
    r.querySelector('[data-testid=editor-kind]').value,
    r.querySelector('[data-testid=editor-prose]').checked,
  ]));
}

/** The problem codes on show, item by item ('' for the dataset's own). */
function warnings(page) {
  return page.$$eval('[data-testid=editor-warning]', (ws) => ws.map((w) => {
    const row = w.closest('[data-testid=editor-item]');
    return [row ? Number(row.dataset.index) + 1 : 0, w.dataset.code, w.textContent];
  }));
}

async function setQuestion(page, n, text) {
  await page.fill(`[data-testid=editor-item]:nth-child(${n}) [data-testid=editor-question]`, text);
}

async function noAxe(page, state) {
  const v = await axeViolations(page);
  assert.deepEqual(v, [], `${state}: ${JSON.stringify(countByRule(v))} ${JSON.stringify(v.slice(0, 3))}`);
}

test('a dataset written from the manual\'s captions passes figeval validate and ground', { skip, timeout: 600_000 }, async () => {
  const page = await openApp(h.browser, h.site.url, { acceptDownloads: true });
  const dir = scratch();
  try {
    await openManualAndEditor(page);
    // The editor starts calm: an empty draft's corpus box is not marked as an error.
    assert.equal(await page.getAttribute('[data-testid=editor-corpus]', 'aria-invalid'), null);
    assert.deepEqual(await warnings(page), []);
    // Its corpus_id starts filled in, from the loaded dataset's corpus (the page starts on the
    // bundled NASA dataset; no grey placeholder that looks filled in), and its intro knows the
    // PDF is open.
    const loaded = JSON.parse(readFileSync(NASA_DATASET, 'utf8')).corpus_id;
    await page.waitForFunction((c) => document.querySelector('[data-testid=editor-corpus]').value === c, loaded, { timeout: 10_000 });
    assert.equal(await page.getAttribute('[data-testid=editor-corpus]', 'placeholder'), null);
    const intro = await page.textContent('[data-testid=editor-panel] > p.muted');
    assert.doesNotMatch(intro, /Open the PDF \(above\)/, intro);
    assert.match(intro, /The PDF is open|compare each question with its caption in the open PDF/, intro);
    await page.fill('[data-testid=editor-corpus]', 'octave-manual');
    await showView(page, 'captions');
    await page.waitForSelector('[data-testid=caption-list][data-status=ready]', { timeout: 300_000 });
    for (const [label, pageNo] of [...LOCATE, CONTENT]) {
      const row = `[data-testid=caption-row][data-figure-ref="${label}"][data-page="${pageNo}"]`;
      await page.click(`${row} [data-testid=add-from-caption]`);
      await page.waitForSelector(`${row} [data-testid=caption-in-draft]`);
    }
    await showView(page, 'editor');
    assert.deepEqual(await items(page), [
      ['', '349', 'Figure 15.3', 'locate', false],
      ['', '353', 'Figure 15.4', 'locate', false],
      ['', '843', 'Figure 30.1', 'locate', false],
    ], 'each caption is a locate item with its label and page, and no question');
    // A row from a caption shows no error before the user has had a chance to write its
    // question; the summary says what is left, and export waits for it.
    assert.deepEqual(await warnings(page), [], 'new rows start calm');
    assert.equal(await page.locator('[data-testid=editor-item] [aria-invalid=true]').count(), 0);
    assert.match(await page.textContent('[data-testid=editor-summary]'), /^3 items · 0 errors · 0 warnings · 3 new items to write: write the new items to export$/);
    // The hooks agree with the text: 0 errors on show, the unwritten rows' errors apart.
    assert.equal(await page.getAttribute('[data-testid=editor-summary]', 'data-errors'), '0');
    assert.ok(Number(await page.getAttribute('[data-testid=editor-summary]', 'data-all-errors')) > 0);
    assert.equal(await page.isDisabled('[data-testid=export-dataset]'), true, 'no export while a rule is broken');
    // Typed in, a row is checked as you type, in Dataset::parse's words, on its item: a blank
    // question, and (as `figeval validate` says too) one that repeats item 1's.
    await setQuestion(page, 2, ' ');
    const blank = await warnings(page);
    assert.ok(blank.length > 0 && blank.every(([n, code]) => n === 2 && code === 'invalid'), JSON.stringify(blank));
    assert.ok(blank.some(([, , text]) => /item 2: question: expected a non-empty string, found an empty or blank string/.test(text)), JSON.stringify(blank));
    assert.equal(await page.getAttribute('[data-testid=editor-item]:nth-child(2) [data-testid=editor-question]', 'aria-invalid'), 'true');
    await noAxe(page, 'editor with errors');

    // A locate question that copies its caption is warned about; rewritten, it is not.
    await setQuestion(page, 1, 'Which figure shows the errorbar plot?');
    await page.waitForSelector('[data-testid=editor-item]:nth-child(1) [data-testid=editor-warning][data-code=repeats_caption]');
    await setQuestion(page, 1, LOCATE[0][2]);
    await setQuestion(page, 2, LOCATE[1][2]);
    await page.selectOption('[data-testid=editor-item]:nth-child(3) [data-testid=editor-kind]', 'content');
    // A content question made of its caption's words is warned about.
    await setQuestion(page, 3, 'What random points does the Delaunay triangulation use?');
    await page.waitForSelector('[data-testid=editor-item]:nth-child(3) [data-testid=editor-warning][data-code=caption_answers]');
    await setQuestion(page, 3, CONTENT[2]);

    // A prose item: pick its page by thumbnail, then a section heading found on it.
    await page.click('[data-testid=editor-add-prose]');
    await page.waitForSelector('[data-testid=editor-picker]');
    await page.fill('[data-testid=editor-picker-from]', '185');
    await page.press('[data-testid=editor-picker-from]', 'Enter');
    await page.click('[data-testid=editor-picker] [data-testid=pick-page][data-page="187"]');
    await page.waitForSelector('[data-testid=editor-item]:nth-child(4) [data-testid=editor-pages]');
    const heading = `[data-testid=editor-heading][data-heading="${PROSE[0]}"]`;
    await page.waitForSelector(heading, { timeout: 30_000 });
    await noAxe(page, 'editor with the page picker');
    await page.click(heading);
    await setQuestion(page, 4, PROSE[2]);

    // Reordering by keyboard: item 4 up and back down.
    await page.focus('[data-testid=editor-item]:nth-child(4) [data-testid=editor-up]');
    await page.keyboard.press('Enter');
    assert.equal((await items(page))[2][2], PROSE[0]);
    await page.focus('[data-testid=editor-item]:nth-child(3) [data-testid=editor-down]');
    await page.keyboard.press('Enter');

    assert.deepEqual(await items(page), [
      [LOCATE[0][2], '349', 'Figure 15.3', 'locate', false],
      [LOCATE[1][2], '353', 'Figure 15.4', 'locate', false],
      [CONTENT[2], '843', 'Figure 30.1', 'content', false],
      [PROSE[2], '187', PROSE[0], 'locate', true],
    ]);
    // Each row shows its page as a thumbnail the viewer draws, and its actions are buttons
    // that look like buttons (a border, not the ghost style).
    assert.deepEqual(
      await page.$$eval('[data-testid=editor-item]', (rows) => rows.map((r) => r.querySelector('[data-testid=page-thumb]')?.dataset.page ?? null)),
      ['349', '353', '843', '187'],
    );
    await page.waitForSelector('[data-testid=editor-item]:nth-child(1) img[data-thumb][data-rendered]', { timeout: 60_000 });
    const look = await page.$eval('[data-testid=editor-item]:nth-child(1) [data-testid=editor-delete]', (b) => getComputedStyle(b).borderTopColor);
    assert.notEqual(look, 'rgba(0, 0, 0, 0)', 'Delete has a visible border');
    assert.deepEqual(await warnings(page), [], 'no error and no warning left');
    assert.equal(await page.getAttribute('[data-testid=editor-summary]', 'data-errors'), '0');
    await noAxe(page, 'editor, valid draft');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=export-dataset]'),
    ]);
    assert.equal(download.suggestedFilename(), 'octave-manual.json');
    const file = path.join(dir.dir, 'octave-manual.json');
    await download.saveAs(file);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(exported.corpus_id, 'octave-manual');
    assert.deepEqual(exported.items.map((i) => [i.figure_ref, i.expected_pages, i.kind, i.tags]), [
      ['Figure 15.3', [349], 'locate', []],
      ['Figure 15.4', [353], 'locate', []],
      ['Figure 30.1', [843], 'content', []],
      [PROSE[0], [187], 'locate', ['prose']],
    ]);
    const validate = await figeval(['validate', file]);
    assert.equal(validate.code, 0, validate.stderr);
    const ground = await figeval(['ground', '--dataset', file, '--pdf', OCTAVE_PDF, '--format', 'json']);
    assert.equal(ground.code, 0, `${ground.stdout}\n${ground.stderr}`);
    const g = JSON.parse(ground.stdout);
    assert.deepEqual(g.items.map((i) => i.verdict), ['ok', 'ok', 'ok', 'ok']);

    // Import reads the file back.
    await page.click('[data-testid=editor-new]');
    assert.equal((await items(page)).length, 0);
    await page.setInputFiles('[data-testid=editor-import]', file);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=editor-item]').length === 4);
    assert.equal((await items(page))[3][2], PROSE[0]);
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations || []), []);
  } finally {
    await page.context().close();
    dir.remove();
  }
});

test('the draft is saved as it is typed and survives a reload', { skip, timeout: 300_000 }, async () => {
  const page = await openApp(h.browser, h.site.url);
  try {
    await showDocument(page);
    await page.click('[data-testid=tab-editor]');
    await page.waitForSelector('[data-testid=editor-panel]', { state: 'visible', timeout: 30_000 });
    await page.fill('[data-testid=editor-corpus]', 'my-corpus');
    await page.click('[data-testid=editor-add-item]');
    await page.fill('[data-testid=editor-item]:nth-child(1) [data-testid=editor-figure-ref]', 'Figure 2.1');
    await page.fill('[data-testid=editor-item]:nth-child(1) [data-testid=editor-pages]', '12, x');
    await setQuestion(page, 1, 'An unfinished question <b>not markup</b>');
    await page.fill('[data-testid=editor-item]:nth-child(1) [data-testid=editor-tags]', 'plot, chart');
    await page.press('[data-testid=editor-item]:nth-child(1) [data-testid=editor-tags]', 'Tab');
    const before = await items(page);
    assert.match((await warnings(page))[0][2], /expected_pages\[1\]: expected a page number \(1 for the PDF's first page\), found the string "x"/);
    await page.reload();
    await page.waitForSelector('[data-testid=dataset-input]', { state: 'attached', timeout: 30_000 });
    await showDocument(page);
    await page.click('[data-testid=tab-editor]');
    await page.waitForSelector('[data-testid=editor-item]', { timeout: 30_000 });
    assert.equal(await page.inputValue('[data-testid=editor-corpus]'), 'my-corpus');
    assert.deepEqual(await items(page), before, 'the same draft, unfinished fields and all');
    assert.equal(await page.inputValue('[data-testid=editor-tags]'), 'plot, chart');
    assert.match(await page.textContent('[data-testid=editor-notice]'), /restored/);
    assert.equal(await page.$('[data-testid=editor-panel] b'), null, 'dataset text is never markup');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.context().close();
  }
});
