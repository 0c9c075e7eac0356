// A corpus of several files in the page (contract §1.5): a dataset whose items give
// `expected_locations` loads, a capture of matches with `file_path` scores to the report
// `figeval score` writes, a match on an expected page of another file is a miss that its
// ranked window calls "right page, wrong file", and the CLI's report of such a dataset opens
// as it was written. A window of several files draws no thumbnails from the one PDF open. A
// live run against refsearch serving two PDFs cut from the manual gives `figeval run`'s report.

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

    // Each file open in turn, the dataset check reads the items located in every PDF read so
    // far, one section each, with the verdicts figeval ground gives them with both PDFs.
    const ground = JSON.parse((await figeval(['ground', '--dataset', DATASET, '--pdf', parts[0], '--pdf', parts[1], '--format', 'json'])).stdout);
    await showView(page, 'document');
    for (const [i, part] of parts.entries()) {
      const name = path.basename(part);
      await page.setInputFiles('[data-testid=pdf-input]', part);
      await page.waitForSelector(`[data-testid=pdf-panel][data-status=open][data-name="${name}"]`, { state: 'attached', timeout: 60_000 });
      await page.waitForSelector(`[data-testid=ground-panel][data-status=checked] [data-testid=ground-file][data-name="${name}"]`, { timeout: 60_000 });
      const sections = await page.$$eval('[data-testid=ground-file]', (ss) => ss.map((s) => s.dataset.name));
      assert.deepEqual(sections, parts.slice(0, i + 1).map((p) => path.basename(p)), 'one section per PDF read, the first kept');
      const rows = await page.$$eval('[data-testid=ground-file]', (ss) => ss.map((s) => [...s.querySelectorAll('[data-testid=ground-row]')]
        .map((r) => [Number(r.dataset.item), r.dataset.verdict]).sort((a, b) => a[0] - b[0])));
      const expected = ground.files.slice(0, i + 1).map((file) => file.item_numbers.map((n, k) => [n, file.ground.items[k].verdict]));
      assert.deepEqual(rows, expected, `after ${name}: figeval ground's verdicts, file by file`);
      const checked = expected.flat().length;
      const status = await page.locator('[data-testid=ground-status]').textContent();
      const read = parts.slice(0, i + 1).map((p) => path.basename(p)).join(', ');
      assert.ok(status.startsWith(`A dataset of several files: ${checked} of its 4 item locations are checked, in ${read}.`), status);
      if (i === 0) {
        // The two paths naming part2.pdf (part2.pdf and manual/part2.pdf) name it once.
        assert.match(status, /Open manual\/part2\.pdf to check the rest\./);
      } else {
        assert.doesNotMatch(status, /to check the rest/);
      }
    }
    // A PDF none of the dataset's paths names, opened after them: the check says so, by name,
    // above the checks of the PDFs read before it.
    const other = '/usr/share/doc/octave/refcard-a4.pdf';
    if (existsSync(other)) {
      await page.setInputFiles('[data-testid=pdf-input]', other);
      await page.waitForSelector('[data-testid=pdf-panel][data-status=open][data-name="refcard-a4.pdf"]', { state: 'attached', timeout: 60_000 });
      await page.waitForFunction(() => /^The open PDF, refcard-a4\.pdf, is none of the dataset's files/.test(document.querySelector('[data-testid=ground-status]')?.textContent ?? ''), null, { timeout: 60_000 });
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await dep.stop();
  }
});
