// A corpus of several files in the page (contract §1.5): a dataset whose items give
// `expected_locations` loads, a capture of matches with `file_path` scores to the report
// `figeval score` writes, a match on an expected page of another file is a miss that its
// ranked window calls "right page, wrong file", and the CLI's report of such a dataset opens
// as it was written. A live run against refsearch serving two PDFs cut from the manual gives
// `figeval run`'s report; with both PDFs open at once (a drawing set) the dataset check, the
// ranked windows' thumbnails and the provenance audit read each file, and a PDF that is no
// longer open leaves no check behind.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  REPO, OCTAVE_PDF, missing, appHarness, openApp, setField, readGroupTable, assertTableMatchesReport,
  figevalReport, figeval, scratch, showView, startRefsearchWith,
} from './support.mjs';

const skip = missing({ figeval: true, refsearch: true, manual: true }) || false;
const h = appHarness(skip);
const DATASET = path.join(REPO, 'tests/fixtures/two-files.json');
let tmp;
before(() => { if (!skip) tmp = scratch(); });
after(() => tmp?.remove());

const hit = (file, page, id = `${file ?? 'nofile'}:${page}`) => ({
  chunk_id: id, ...(file ? { file_path: file } : {}), provenance: { page_start: page, page_end: page },
  content: `The figure on page ${page} of ${file ?? 'a file not named'} draws its data as a line plot.`,
});

/** One answer a question of tests/fixtures/two-files.json: hits, misses and wrong files. */
function capture() {
  const items = JSON.parse(readFileSync(DATASET, 'utf8')).items;
  const matches = [
    // part1.pdf p. 3: first the right page of the wrong file, then the right one (rank 2).
    [hit('part2.pdf', 3), hit('corpus/manual/part1.pdf', 3)],
    // manual/part2.pdf p. 3: a shorter path of the same file.
    [hit('part2.pdf', 3)],
    // part1.pdf p. 24: the page before, then p. 24 of a file whose name only ends the same.
    [hit('part1.pdf', 23), hit('notpart1.pdf', 24)],
    // part2.pdf p. 14: a match that names no file.
    [hit(null, 14), hit('part1.pdf', 14)],
  ];
  return items.map((it, i) => JSON.stringify({ query: it.question, matches: matches[i] })).join('\n') + '\n';
}

test('a dataset of several files scores in the page as figeval score scores it, naming the wrong files', { skip, timeout: 120_000 }, async () => {
  const text = capture();
  const file = tmp.file('two-files.jsonl', text);
  const out = path.join(tmp.dir, 'two-files-report.json');
  const cli = await figevalReport(['score', '--responses', file, '--dataset', DATASET, '--out', out]);
  assert.equal(cli.page_hit_at_3, 0.5, 'two of the four items find their file\'s page');

  const page = await openApp(h.browser, h.site.url, { acceptDownloads: true });
  await showView(page, 'workbench');
  await setField(page, 'dataset-input', readFileSync(DATASET, 'utf8'));
  await setField(page, 'responses-input', text);
  await page.click('[data-testid=score-offline]');
  assertTableMatchesReport(assert, await readGroupTable(page), cli);
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-report]')]);
  const report = JSON.parse(readFileSync(await d.path(), 'utf8'));
  assert.deepEqual(report.per_item, cli.per_item, 'the page\'s records are the CLI\'s, files and wrong files included');

  // The first item's window: its location, each match's file, and the wrong file named.
  await page.locator('[data-testid=item-toggle]').first().click();
  const win = page.locator('[data-testid=ranked-window]').first();
  assert.match(await win.locator('p').first().textContent(), /Expected: part1\.pdf p\. 3\./);
  assert.deepEqual(await win.locator('[data-testid=match-file]').allTextContents(), ['part2.pdf', 'corpus/manual/part1.pdf']);
  assert.deepEqual(await win.locator('[data-testid=on-expected]').allTextContents(), ['✗ right page, wrong file', '✓ expected page']);
  assert.deepEqual(cli.per_item[0].top.map((t) => [t.wrong_file ?? false, t.on_expected_page]), [[true, false], [false, true]]);

  // The PDF open is one of the files: the window draws no thumbnail from it.
  await showView(page, 'document');
  await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  // The dataset check reads the items located in the open PDF: none is in octave.pdf.
  await page.waitForSelector('[data-testid=ground-panel][data-status=several-files]', { timeout: 60_000 });
  assert.match(await page.locator('[data-testid=ground-status]').textContent(),
    /^The dataset is of several files \(expected_locations\), and none of its items has a location in octave\.pdf: open one of its files/);
  // Nor is the report audited against it (figeval score --pdf A --pdf B audits each file in its own).
  assert.equal(await page.locator('[data-testid=provenance-panel]').count(), 0, 'no provenance audit against one of the files');
  // The viewer decorates every ranked window as it appears: open another one, let the viewer's
  // observer run, and find no thumbnail in either.
  await showView(page, 'report');
  await page.locator('[data-testid=item-toggle]').nth(1).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=ranked-window]').length === 2);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
  assert.equal(await page.locator('[data-testid=ranked-window] [data-testid=page-thumb]').count(), 0, 'no thumbnail of another file');

  // The CLI's report file opens with the same records.
  const other = await openApp(h.browser, h.site.url);
  await other.setInputFiles('[data-testid=report-input]', out);
  assertTableMatchesReport(assert, await readGroupTable(other), cli);
  await other.locator('[data-testid=item-toggle]').nth(2).click();
  const third = other.locator('[data-testid=ranked-window]').first();
  assert.deepEqual(await third.locator('[data-testid=on-expected]').allTextContents(), ['✗ off page', '✗ right page, wrong file']);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(other.problems, []);
  await other.context().close();
  await page.context().close();
});

test('a live run over two files gives the report figeval run gives against the same refsearch', { skip, timeout: 300_000 }, async () => {
  // The two PDFs tests/files.rs cuts from the manual: pages 330–355 and 820–840.
  const dir = path.join(tmp.dir, 'manual');
  mkdirSync(dir, { recursive: true });
  const parts = [['part1.pdf', '330-355'], ['part2.pdf', '820-840']].map(([name, pages]) => {
    const out = path.join(dir, name);
    execFileSync('qpdf', ['--empty', '--pages', OCTAVE_PDF, pages, '--', out]);
    return out;
  });
  const dep = await startRefsearchWith(['--pdf', parts[0], '--pdf', parts[1], '--corpus-id', 'octave-two-files', '--listen', '127.0.0.1:0']);
  try {
    const cli = await figevalReport(['run', '--base-url', dep.url, '--dataset', DATASET]);
    assert.ok(cli.per_item.every((r) => r.top.every((t) => ['part1.pdf', 'part2.pdf'].includes(t.file_path))), 'each match names its file');
    const page = await openApp(h.browser, h.site.url, { acceptDownloads: true });
    await showView(page, 'workbench');
    await setField(page, 'dataset-input', readFileSync(DATASET, 'utf8'));
    await setField(page, 'base-url', dep.url);
    await page.click('[data-testid=run-live]');
    assertTableMatchesReport(assert, await readGroupTable(page), cli);
    const [d] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-report]')]);
    const report = JSON.parse(readFileSync(await d.path(), 'utf8'));
    assert.deepEqual(report.per_item, cli.per_item, 'the live run\'s records are figeval run\'s');

    // Both PDFs open at once (a drawing set): the dataset check reads the items located in
    // each, one section each, with the verdicts figeval ground gives them.
    const ground = JSON.parse((await figeval(['ground', '--dataset', DATASET, '--pdf', parts[0], '--pdf', parts[1], '--format', 'json'])).stdout);
    const names = parts.map((p) => path.basename(p));
    const sections = () => page.$$eval('[data-testid=ground-file]', (ss) => ss.map((s) => [s.dataset.name, [...s.querySelectorAll('[data-testid=ground-row]')]
      .map((r) => [Number(r.dataset.item), r.dataset.verdict]).sort((a, b) => a[0] - b[0])]));
    const verdicts = (file) => file.item_numbers.map((n, k) => [n, file.ground.items[k].verdict]);
    const status = () => page.locator('[data-testid=ground-status]').textContent();
    await showView(page, 'document');
    await page.setInputFiles('[data-testid=pdf-input]', parts);
    await page.waitForSelector('[data-testid=pdf-panel][data-status=open][data-name="part1.pdf"]', { state: 'attached', timeout: 60_000 });
    assert.deepEqual(JSON.parse(await page.getAttribute('[data-testid=pdf-panel]', 'data-names')), names);
    assert.match(await page.textContent('[data-testid=pdf-status]'), /^open: 2 PDFs — part1\.pdf \(26 pages\), part2\.pdf \(21 pages\)$/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=ground-panel][data-status=checked] [data-testid=ground-file]').length === 2, null, { timeout: 60_000 });
    assert.deepEqual(await sections(), names.map((n, i) => [n, verdicts(ground.files[i])]), 'figeval ground\'s verdicts, file by file');
    assert.ok((await status()).startsWith('A dataset of several files: 4 of its 4 item locations are checked, in part1.pdf, part2.pdf.'), await status());
    assert.doesNotMatch(await status(), /to check the rest|none of the dataset's files/);

    // Each ranked window's thumbnails come from the PDF its row's file names: part2.pdf's page
    // 3 is not part1.pdf's page 3.
    await showView(page, 'report');
    for (let i = 0; i < 4; i++) await page.locator('[data-testid=item-toggle]').nth(i).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=ranked-window]').length === 4);
    await page.waitForSelector('[data-testid=ranked-window] [data-testid=page-thumb][data-pdf]', { state: 'attached', timeout: 30_000 });
    const thumbs = await page.$$eval('[data-testid=ranked-window][data-files=true] [data-testid=window-row]', (rows) => rows
      .filter((r) => r.dataset.file)
      .map((r) => [r.dataset.file, r.querySelector('[data-testid=page-thumb]')?.dataset.pdf ?? null]));
    assert.ok(thumbs.length >= 4, JSON.stringify(thumbs));
    for (const [file, pdf] of thumbs) assert.equal(pdf, path.basename(file), `a match of ${file} draws from ${pdf}`);
    const expectedThumbs = await page.$$eval('[data-testid=ranked-window][data-files=true] .expected-thumbs [data-testid=page-thumb]', (bs) => bs.map((b) => b.dataset.pdf));
    assert.deepEqual([...new Set(expectedThumbs)].sort(), names, 'the expected pages of both files');
    // A thumbnail of part2.pdf draws, and opens part2.pdf's page.
    const second = page.locator('[data-testid=ranked-window][data-files=true] .expected-thumbs [data-testid=page-thumb][data-pdf="part2.pdf"]').first();
    await second.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => [...document.querySelectorAll('.expected-thumbs img[data-pdf="part2.pdf"]')].some((i) => i.dataset.rendered), null, { timeout: 30_000 });
    await second.click();
    await page.waitForSelector('[data-testid=page-view-image]:not([hidden])', { timeout: 30_000 });
    assert.match(await page.textContent('#page-view-h'), /^Page \d+ of 21 of part2\.pdf/);
    await page.keyboard.press('Escape');

    // The provenance audit reads each hit in the PDF its file is, as figeval run --pdf does.
    const cliRun = await figeval(['run', '--base-url', dep.url, '--dataset', DATASET, '--pdf', parts[0], '--pdf', parts[1]]);
    assert.equal(cliRun.code, 0, cliRun.stderr);
    const cliLine = /^figeval: (provenance: .*)$/m.exec(cliRun.stderr)?.[1];
    assert.ok(cliLine, cliRun.stderr);
    await showView(page, 'document');
    await page.waitForSelector('[data-testid=provenance-panel][data-status=checked]', { timeout: 60_000 });
    // The same hits and the same verdict on them; pdf.js's reading order and line breaks are
    // not poppler's, so a hit or two the CLI finds may not be found in the page (doc.test.mjs).
    const counts = (line) => {
      const m = /^provenance: (\d+) of (\d+) hits checked are printed on a page they cite \(([\d.]+)\)(?:; (\d+) hits? too short)?/.exec(line);
      assert.ok(m, line);
      return { on: Number(m[1]), checked: Number(m[2]), rate: m[3], notFound: Number(m[4] ?? 0) };
    };
    const lineInPage = await page.textContent('[data-testid=provenance-line]');
    const [inPage, native] = [counts(lineInPage), counts(cliLine)];
    const both = `the page: ${lineInPage}; figeval run: ${cliLine}`;
    assert.ok(inPage.checked > 0, both);
    assert.equal(inPage.checked + inPage.notFound, native.checked + native.notFound, `the same hits: ${both}`);
    assert.equal(inPage.rate, native.rate, `the same share on a cited page: ${both}`);
    assert.ok(inPage.checked >= 0.9 * native.checked, both);

    // Only part1.pdf open: no check of part2.pdf is left on screen, and the check says to open it.
    await page.setInputFiles('[data-testid=pdf-input]', parts[0]);
    await page.waitForFunction(() => document.querySelector('[data-testid=pdf-panel]').dataset.names === '["part1.pdf"]', null, { timeout: 60_000 });
    await page.waitForFunction(() => /Open manual\/part2\.pdf to check the rest\./.test(document.querySelector('[data-testid=ground-status]')?.textContent ?? ''), null, { timeout: 60_000 });
    assert.deepEqual(await sections(), [['part1.pdf', verdicts(ground.files[0])]], 'part2.pdf is no longer open: its check is gone');
    assert.ok((await status()).startsWith('A dataset of several files: 2 of its 4 item locations are checked, in part1.pdf.'), await status());

    // A PDF none of the dataset's paths names, opened with one it does: it is named as such.
    const other = '/usr/share/doc/octave/refcard-a4.pdf';
    if (existsSync(other)) {
      await page.setInputFiles('[data-testid=pdf-input]', [parts[1], other]);
      await page.waitForFunction(() => document.querySelector('[data-testid=pdf-panel]').dataset.names === '["part2.pdf","refcard-a4.pdf"]', null, { timeout: 60_000 });
      await page.waitForFunction(() => /refcard-a4\.pdf is none of the dataset's files: nothing is checked in it\./.test(document.querySelector('[data-testid=ground-status]')?.textContent ?? ''), null, { timeout: 60_000 });
      assert.deepEqual(await sections(), [['part2.pdf', verdicts(ground.files[1])]]);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await dep.stop();
  }
});
