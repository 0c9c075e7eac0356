// Intervals in the report view and many reports in the compare view.
//
// The report view: every bar of the chart has a whisker over its 95% interval, the group table,
// the headline and the figures beside it show the interval as the text report prints it and a
// screen reader hears the table's; a report from before intervals (no `_ci` keys) still opens. The compare view: three report files sit side
// by side as `figeval compare BASE A B --format json` has them, every cell worded as the text
// matrix words it; reports are reordered, made the baseline and removed (back to two: the
// before/after view); the share link carries them in order and opens the same matrix; axe
// finds nothing. Keyboard focus follows a report moved with ↑/↓.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, missEvery, readGroupTable, assertTableMatchesReport,
  figevalReport, figeval, scratch, intervalData, intervalText, fixed, fixed2, axeViolations, countByRule,
  METRICS, hitsText, rateText, signed, deltaIntervalText,
} from './support.mjs';

const skip = missing({ figeval: true }) || false;
const app = appHarness(skip);
const dataset = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));
const tmp = scratch();
after(() => tmp.remove());

/** Bodies that hit at rank 1 for every item whose index is not a multiple of `every`. */
const capture = (every) => missEvery(dataset, every);

/** A report file `figeval score` wrote for capture(every): { path, report }. */
async function reportFile(name, every) {
  const responses = tmp.file(`${name}.jsonl`, capture(every));
  // Named as its file: `figeval compare` and the page both call a run by its run.name.
  const report = await figevalReport(['score', '--responses', responses, '--dataset', OCTAVE_DATASET, '--name', `${name}.json`]);
  return { path: tmp.file(`${name}.json`, JSON.stringify(report)), report };
}

/** Opens a report file's text in the report view. */
async function openReport(page, name, text) {
  await page.setInputFiles('[data-testid=report-input]', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForSelector('[data-testid=report-view]');
}

/** The headline and the side figures: { metric: [rate, what follows it, data-ci] }. */
async function headlineFigures(page) {
  const figures = await page.evaluate(() => {
    const h = document.querySelector('[data-testid=headline]');
    const figures = [...document.querySelectorAll('[data-testid=side-metrics] .side-metric')].map((d) => [
      d.dataset.metric, d.querySelector('.side-value').textContent, d.querySelector('.hits')?.textContent ?? null, d.dataset.ci ?? null]);
    return [['page_hit_at_3', h.querySelector('.headline-value').textContent, h.querySelector('.headline-ci').textContent, h.dataset.ci ?? null], ...figures];
  });
  assert.equal(figures.length, METRICS.length + 1, 'the headline, the other rates and MRR');
  return Object.fromEntries(figures.map(([m, ...shown]) => [m, shown]));
}

/** What the headline and side figures must show for `report` (its JSON), as the text report words it. */
function expectedHeadline(report) {
  const shown = Object.fromEntries(METRICS.map((m) => {
    const ci = report[`${m}_ci`];
    return [m, [fixed(report[m], 4), hitsText(report[`${m}_hits`], report.n, ci), ci ? intervalData(ci) : null]];
  }));
  const mrr = report.page_mrr_ci;
  shown.page_mrr = [fixed(report.page_mrr, 4), mrr ? `(95% CI ${intervalText(mrr)})` : null, mrr ? intervalData(mrr) : null];
  return shown;
}

test('every bar has a whisker over its interval, the table shows and speaks it, the headline and the figures beside it show it, and a report without intervals opens', { skip }, async () => {
  const { report } = await reportFile('intervals', 3);
  const page = await openApp(app.browser, app.site.url);
  await openReport(page, 'intervals.json', JSON.stringify(report));
  const table = await readGroupTable(page);
  assertTableMatchesReport(assert, table, report);
  assert.deepEqual(await headlineFigures(page), expectedHeadline(report), 'the headline and the figures beside it');

  const scopes = { ...report.by_group, overall: report };
  // Each whisker, where it is drawn: its ends as fractions of its bar's track.
  const whiskers = await page.$$eval('[data-testid=group-chart] [data-testid=whisker]', (ws) => ws.map((w) => {
    const track = w.parentElement.querySelector('.track').getBBox();
    const line = w.querySelector('path:not(.halo)').getBBox();
    return [w.closest('[data-group]').dataset.group, w.dataset.metric, w.dataset.ci,
      (line.x - track.x) / track.width, (line.x + line.width - track.x) / track.width,
      line.y >= track.y && line.y + line.height <= track.y + track.height];
  }));
  const charted = ['page_hit_at_3', 'precise_page_hit_at_3', 'figure_chunk_at_3'];
  assert.equal(whiskers.length, Object.keys(scopes).length * charted.length, 'one whisker a bar');
  for (const [group, metric, ci, from, to, onBar] of whiskers) {
    const [lo, hi] = scopes[group][`${metric}_ci`];
    assert.equal(ci, intervalData([lo, hi]), `${group} ${metric}`);
    assert.ok(Math.abs(from - lo) < 1e-4 && Math.abs(to - hi) < 1e-4, `${group} ${metric}: drawn over ${from}–${to}, the interval is ${lo}–${hi}`);
    assert.ok(onBar, `${group} ${metric}: the whisker stays on its bar`);
  }

  const chart = await page.getByRole('img', { name: /^Rates by group:/ }).getAttribute('aria-label');
  const [lo, hi] = report.page_hit_at_3_ci;
  const spoken = `page hit at 3, overall: ${report.page_hit_at_3.toFixed(4)}, ${report.page_hit_at_3_hits} of ${report.n}, 95% CI ${fixed2(lo)} to ${fixed2(hi)}`;
  assert.ok(chart.includes(`${spoken};`), chart);
  assert.equal(await page.getByRole('cell', { name: spoken, exact: true }).count(), 1, spoken);

  // A report from before intervals: no `_ci` key anywhere. A rate's interval follows from its
  // hits and n; MRR's bootstrap is stated, not derived, so it shows alone.
  const strip = (s) => Object.fromEntries(Object.entries(s).filter(([k]) => !k.endsWith('_ci')));
  const old = strip(report);
  old.by_group = Object.fromEntries(Object.entries(report.by_group).map(([g, s]) => [g, strip(s)]));
  await openReport(page, 'old.json', JSON.stringify(old));
  await page.waitForFunction(() => document.querySelector('[data-testid=group-table] td[data-metric=page_mrr]')?.dataset.ci === undefined);
  const oldTable = await readGroupTable(page);
  assert.equal(oldTable.overall.page_mrr.text, report.page_mrr.toFixed(4));
  for (const [group, cells] of Object.entries(oldTable)) {
    for (const m of charted) assert.equal(cells[m].text, table[group][m].text, `${group} ${m}`);
  }
  assert.equal(await page.locator('[data-testid=group-chart] [data-testid=whisker]').count(), whiskers.length);
  // The headline's and the side figures' rates show the interval their hits and n give; MRR none.
  const oldFigures = { ...expectedHeadline(report), page_mrr: [fixed(report.page_mrr, 4), null, null] };
  assert.deepEqual(await headlineFigures(page), oldFigures, 'a report without intervals: the headline');
  assert.equal(await page.locator('[data-testid=error-banner]').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** A p-value as the core prints it (`render::p_value`), two significant figures: `0.062`, `6.0e-8`. */
function pValue(p) {
  if (p >= 1) return '1';
  if (p === 0) return '0';
  if (p < 0.001) return p.toExponential(1);
  return fixed(p, p >= 0.1 ? 2 : p >= 0.01 ? 3 : 4);
}
/** A matrix cell of `figeval compare --format json` as the page must show it: [rate, change]. */
function cellText(c) {
  const rate = rateText(c.rate, c.hits, c.n, c.ci);
  if (c.delta === null) return [rate, null];
  return [rate, `${signed(c.delta)} (${deltaIntervalText(c.delta_ci)}), p ${pValue(c.p_value)}, Holm ${pValue(c.p_holm)}${c.regressed ? ', REGRESSED' : ''}`];
}

/** The matrix on show: { scope: [[label, base, { metric: [rate, change] | 'no items' }]] }. */
function shownMatrix(page) {
  return page.$$eval('[data-testid=matrix-scope]', (scopes) => Object.fromEntries(scopes.map((s) => [
    s.dataset.scope,
    [...s.querySelectorAll('[data-testid=matrix-row]')].map((r) => [
      r.querySelector('th').firstChild.textContent, r.dataset.base,
      Object.fromEntries([...r.querySelectorAll('td[data-metric]:not([data-metric=page_mrr])')].map((td) => [td.dataset.metric,
        td.querySelector('.rate') ? [td.querySelector('.rate').textContent, td.querySelector('.change')?.textContent ?? null] : td.textContent])),
    ]),
  ])));
}

/** The verdict and MRR of each row on show: { scope: [[verdict, mrr rate text, mrr change]] }. */
function shownVerdicts(page) {
  return page.$$eval('[data-testid=matrix-scope]', (scopes) => Object.fromEntries(scopes.map((s) => [
    s.dataset.scope,
    [...s.querySelectorAll('[data-testid=matrix-row]')].map((r) => {
      const mrr = r.querySelector('td[data-metric=page_mrr]');
      return [r.querySelector('[data-testid=matrix-verdict]').textContent, mrr.querySelector('.rate').textContent,
        mrr.querySelector('.change')?.textContent ?? null];
    }),
  ])));
}

/**
 * What the verdicts and MRRs must be, worked out here from `figeval compare --format json`'s
 * cells (a significant fall or rise is a Holm p below 0.05) and each report's own MRR.
 */
function expectedVerdicts(files, json) {
  const reports = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const out = {};
  json.columns.forEach((col, i) => {
    out[col.scope] ??= json.rows.map(() => []);
    json.rows.forEach((row, j) => { if (row.cells[i]) out[col.scope][j].push(row.cells[i]); });
  });
  const summary = (r, scope) => (scope === 'overall' ? r : r.by_group[scope]);
  const mrr = (r, scope) => {
    const s = summary(r, scope);
    const ci = s.page_mrr_ci;
    return `${fixed(s.page_mrr, 4)}${ci ? ` (95% CI ${fixed(ci[0], 2)}–${fixed(ci[1], 2)})` : ''}`;
  };
  return Object.fromEntries(Object.entries(out).map(([scope, rows]) => [scope, rows.map((cells, j) => {
    let verdict = 'baseline';
    if (j > 0) {
      const down = cells.filter((c) => c.delta < 0);
      const up = cells.filter((c) => c.delta > 0);
      if (down.some((c) => c.p_holm < 0.05)) verdict = 'fell (Holm p < 0.05)';
      else if (up.some((c) => c.p_holm < 0.05)) verdict = 'rose (Holm p < 0.05)';
      else if (down.length && up.length) verdict = 'mixed, too small to tell';
      else if (down.length) verdict = 'lower, too small to tell';
      else if (up.length) verdict = 'higher, too small to tell';
      else verdict = 'held';
    }
    const base = summary(reports[0], scope).page_mrr;
    const own = summary(reports[j], scope).page_mrr;
    return [verdict, mrr(reports[j], scope), j === 0 ? null : signed(Math.round((own - base) * 1e4) / 1e4)];
  })]));
}

/** What `figeval compare` prints for these files, in the shape of `shownMatrix`. */
async function cliMatrix(files) {
  const r = await figeval(['compare', ...files, '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const m = JSON.parse(r.stdout);
  const out = {};
  m.columns.forEach((col, i) => {
    out[col.scope] ??= m.rows.map((row) => [basename(row.label), String(row.base), {}]);
    m.rows.forEach((row, j) => { out[col.scope][j][2][col.metric] = row.cells[i] ? cellText(row.cells[i]) : 'no items'; });
  });
  return { shown: out, json: m };
}

/** The reports compared, in order: [name, is baseline]. */
const runs = (page) => page.$$eval('[data-testid=compare-run]', (rs) => rs.map((r) => [r.querySelector('[data-testid=compare-run-name]').value, r.dataset.base]));

/** Report files for these [name, every] and a page comparing them (before, after, added): { files, page }. */
async function comparingThree(specs) {
  const files = [];
  for (const [name, every] of specs) files.push((await reportFile(name, every)).path);
  const page = await openApp(app.browser, app.site.url);
  await page.click('[data-testid=tab-compare]');
  await page.setInputFiles('[data-testid=compare-before-input]', files[0]);
  await page.setInputFiles('[data-testid=compare-after-input]', files[1]);
  await page.waitForSelector('[data-testid=comparison]');
  await page.setInputFiles('[data-testid=compare-add-input]', files[2]);
  await page.waitForSelector('[data-testid=compare-matrix]');
  return { files, page };
}

test('the compare view takes N reports: the core\'s matrix, reordered, a new baseline, shared in order, removed back to two', { skip, timeout: 180_000 }, async () => {
  const { files, page } = await comparingThree([['base', 3], ['fewer-misses', 7], ['more-misses', 2]]);
  assert.equal(await page.locator('[data-testid=comparison]').count(), 0, 'three reports: the matrix, not the pair view');
  assert.equal(await page.locator('[data-testid=compare-swap]').count(), 0);

  const check = async (order, what) => {
    const cli = await cliMatrix(order);
    assert.deepEqual(await shownMatrix(page), cli.shown, what);
    assert.deepEqual(await shownVerdicts(page), expectedVerdicts(order, cli.json), `${what}: verdicts and MRR`);
    assert.deepEqual(await runs(page), order.map((f, i) => [basename(f), String(i === 0)]), `${what}: the list`);
    const guide = await page.locator('[data-testid=too-small-to-tell] li').allTextContents();
    assert.deepEqual(guide, cli.json.too_small_to_tell, `${what}: the guide as figeval compare prints it`);
    assert.deepEqual(guide, [
      'overall (n 33): only a change of 0.18 or more could be significant',
      'content (n 13): only a change of 0.46 or more could be significant',
      'locate (n 13): only a change of 0.46 or more could be significant',
      'prose (n 7): only a change of 0.86 or more could be significant',
    ], `${what}: the guide`);
    return cli;
  };
  const first = await check(files, 'as added');
  assert.deepEqual(Object.keys(first.shown), ['overall', 'content', 'locate', 'prose'], 'one table a scope, overall first');
  assert.ok(first.json.rows.slice(1).every((r) => r.cells.every((c) => c.p_holm !== null)), 'every run cell has a Holm p');
  assert.ok(first.json.rows[2].cells.some((c) => c.regressed), 'the run with more misses regressed somewhere');
  assert.equal(await page.locator('td.regressed .change').first().textContent().then((t) => t.endsWith(', REGRESSED')), true);
  // Gains are marked as regressions are: every cell whose rate rose, and no other.
  const marked = await page.$$eval('[data-testid=matrix-scope][data-scope=overall] [data-testid=matrix-row] td[data-metric]:not([data-metric=page_mrr])',
    (tds) => tds.map((td) => td.classList.contains('gained-cell')));
  assert.deepEqual(marked, first.json.rows.flatMap((r) => r.cells.filter((_, i) => first.json.columns[i].scope === 'overall').map((c) => c.delta > 0)));
  assert.ok(marked.some(Boolean), 'the run with fewer misses gained somewhere');
  // A cell is its rate on one line and its change on the next, never wrapped further.
  const wrapped = await page.$$eval('[data-testid=matrix-row] td .rate, [data-testid=matrix-row] td .change', (spans) => spans
    .filter((s) => { const r = document.createRange(); r.selectNodeContents(s); return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size > 1; })
    .map((s) => s.textContent));
  assert.deepEqual(wrapped, [], 'no rate or change wraps');
  assert.deepEqual(await axeViolations(page).then(countByRule), {}, 'axe on the matrix view');

  // Every question any run gained or lost, on any metric, is listed once; it opens to one ranked
  // window per report, side by side, each on the question's own record.
  const moved = new Set();
  for (const run of files.slice(1)) {
    const pair = JSON.parse((await figeval(['compare', files[0], run, '--format', 'json'])).stdout);
    for (const m of pair.scopes.find((sc) => sc.scope === 'overall').metrics) [...m.gained, ...m.lost].forEach((q) => moved.add(q));
  }
  const listed = await page.locator('[data-testid=changed-question]').evaluateAll((ds) => ds.map((d) => d.dataset.question));
  assert.equal(listed.length, Math.min(moved.size, 25));
  assert.equal(new Set(listed).size, listed.length, 'each question once');
  assert.ok(listed.every((q) => moved.has(q)));
  assert.match(await page.locator('[data-testid=changed-questions] h2').textContent(), new RegExp(`: ${moved.size}$`));
  const opened = page.locator('[data-testid=changed-question]').first();
  assert.match(await opened.locator('summary').textContent(), /(fewer-misses|more-misses)\.json: [+−] (gained|lost) /, 'each move names its run');
  await opened.locator('summary').click();
  const sides = opened.locator('[data-testid=side-by-side] .side');
  assert.deepEqual(await sides.evaluateAll((ss) => ss.map((x) => x.querySelector(':scope > h3').textContent)), files.map((f) => basename(f)), 'one window per report, the baseline first');
  const shownQuestion = await opened.getAttribute('data-question');
  const expected = dataset.items.find((it) => it.question === shownQuestion).expected_pages;
  const windows = await sides.locator('[data-testid=ranked-window]').evaluateAll((ws) => ws.map((w) => w.dataset.expected));
  assert.equal(windows.length, 3);
  assert.ok(windows.every((e) => e === (expected.length > 1 ? `pp. ${expected.join(', ')}` : `p. ${expected[0]}`)), `each window is the question's own: ${windows}`);
  const tops = await sides.evaluateAll((ss) => ss.map((x) => Math.round(x.getBoundingClientRect().top)));
  assert.ok(tops.every((t) => t === tops[0]), `side by side: ${tops}`);
  assert.deepEqual(await axeViolations(page).then(countByRule), {}, 'axe with a question open side by side');
  await opened.locator('summary').click();

  // Reorder: the second moves down; then the last becomes the baseline.
  await page.locator('[data-testid=compare-run][data-index="1"] [data-testid=compare-run-down]').click();
  await check([files[0], files[2], files[1]], 'the second moved down');
  await page.locator('[data-testid=compare-run][data-index="2"] [data-testid=compare-run-baseline]').click();
  const order = [files[1], files[0], files[2]];
  const shown = await check(order, 'a new baseline');
  assert.equal(await page.locator('[data-testid=compare-run][data-index="0"] [data-testid=compare-run-baseline]').isDisabled(), true);

  // The share link carries them in that order and opens the same matrix.
  const link = await page.locator('[data-testid=compare-share-link]').inputValue();
  const shared = JSON.parse(inflateRawSync(Buffer.from(link.split('#compare=')[1], 'base64url')));
  assert.deepEqual(shared.reports.map((r) => r.name), order.map((f) => basename(f)), 'baseline first, then the runs in order');
  assert.deepEqual(shared.reports.map((r) => r.report), order.map((f) => JSON.parse(readFileSync(f, 'utf8'))));
  const other = await openApp(app.browser, link);
  await other.waitForSelector('[data-testid=compare-matrix]');
  assert.deepEqual(await shownMatrix(other), shown.shown);
  assert.equal(await other.locator('[data-testid=compare-share-link]').inputValue(), link, 'it shares the same link');
  assert.deepEqual(other.problems, []);
  await other.context().close();

  // A report renamed in place: its matrix rows and the share link carry the new name.
  await page.locator('[data-testid=compare-run][data-index="2"] [data-testid=compare-run-name]').fill('  reranker on ');
  await page.locator('[data-testid=compare-run][data-index="2"] [data-testid=compare-run-name]').press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=matrix-scope] [data-testid=matrix-row]:last-child th')?.textContent === 'reranker on');
  const renamed = await page.locator('[data-testid=compare-share-link]').inputValue();
  assert.deepEqual(JSON.parse(inflateRawSync(Buffer.from(renamed.split('#compare=')[1], 'base64url'))).reports.map((r) => r.name),
    [basename(order[0]), basename(order[1]), 'reranker on']);
  // A blank name is refused: the field goes back to the name.
  await page.locator('[data-testid=compare-run][data-index="2"] [data-testid=compare-run-name]').fill('   ');
  await page.locator('[data-testid=compare-run][data-index="2"] [data-testid=compare-run-name]').press('Enter');
  await page.locator('[data-testid=compare-run][data-index="0"] [data-testid=compare-run-name]').focus();
  assert.equal((await runs(page))[2][0], 'reranker on');

  // A file that is not a report: the banner, and the three stay.
  await page.setInputFiles('[data-testid=compare-add-input]', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"n": 1}') });
  await page.locator('[data-testid=error-banner]').waitFor();
  assert.match(await page.locator('[data-testid=error-banner]').textContent(), /bad\.json was refused/);
  assert.equal((await runs(page)).length, 3);

  // Remove the baseline: two left, the before/after view of two reports.
  await page.locator('[data-testid=compare-run][data-index="0"] [data-testid=compare-run-remove]').click();
  await page.waitForSelector('[data-testid=comparison]');
  assert.equal(await page.locator('[data-testid=compare-matrix]').count(), 0);
  assert.deepEqual(await page.locator('[data-testid^=compare-][data-testid$=-name] strong').allTextContents(), [basename(files[0]), 'reranker on'], 'the renamed report keeps its name');
  const pair = JSON.parse((await figeval(['compare', files[0], files[2], '--format', 'json'])).stdout);
  assert.deepEqual(await page.locator('[data-testid=too-small-to-tell] li').allTextContents(), pair.too_small_to_tell);
  assert.deepEqual(await page.locator('[data-testid=reading-guide] li').allTextContents(), pair.reading_guide);
  assert.deepEqual(await axeViolations(page).then(countByRule), {}, 'axe with two reports');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('adding a report keeps the page where the user is: the reports card and the new report stay in view', { skip, timeout: 120_000 }, async () => {
  const files = [];
  for (const [name, every] of [['base', 3], ['fewer-misses', 7], ['more-misses', 2]]) files.push((await reportFile(name, every)).path);
  const page = await openApp(app.browser, app.site.url);
  await page.click('[data-testid=tab-compare]');
  await page.setInputFiles('[data-testid=compare-before-input]', files[0]);
  await page.setInputFiles('[data-testid=compare-after-input]', files[1]);
  await page.waitForSelector('[data-testid=comparison]');
  // The user scrolls to the card that adds a report, as they do to click it.
  await page.locator('[data-testid=compare-runs]').scrollIntoViewIfNeeded();
  const before = await page.locator('[data-testid=compare-runs]').evaluate((e) => e.getBoundingClientRect().top);
  await page.setInputFiles('[data-testid=compare-add-input]', files[2]);
  await page.waitForSelector('[data-testid=compare-matrix]');
  const view = await page.evaluate(() => window.innerHeight);
  const card = await page.locator('[data-testid=compare-runs]').evaluate((e) => e.getBoundingClientRect().top);
  assert.ok(card >= 0 && card < view, `the reports card stays in view: top ${before} before, ${card} after, viewport ${view}`);
  const added = await page.locator('[data-testid=compare-run][data-index="2"]').evaluate((e) => {
    const r = e.getBoundingClientRect();
    return [r.top, r.bottom];
  });
  assert.ok(added[0] >= 0 && added[1] <= view, `the added report is in view: ${added}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('focus follows the report moved with the keyboard: the same arrow of its row, the other one at an end of the list; a removed report hands it to the next', { skip, timeout: 120_000 }, async () => {
  const { files, page } = await comparingThree([['one', 3], ['two', 7], ['three', 2]]);
  /** The focused control: [its test id, its row's report, that row's position]. */
  const focused = () => page.evaluate(() => {
    const el = document.activeElement;
    const row = el?.closest('[data-testid=compare-run]');
    return [el?.dataset.testid ?? null, row?.querySelector('[data-testid=compare-run-name]').value ?? null, row?.dataset.index ?? null];
  });
  const [one, two, three] = files.map((f) => basename(f));
  await page.locator('[data-testid=compare-run][data-index="0"] [data-testid=compare-run-down]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-run][data-index="1"] [data-testid=compare-run-name]').value.startsWith('one'));
  assert.deepEqual((await runs(page)).map(([n]) => n), [two, one, three]);
  assert.deepEqual(await focused(), ['compare-run-down', one, '1'], 'the moved report keeps focus on its ↓');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-run][data-index="2"] [data-testid=compare-run-name]').value.startsWith('one'));
  assert.deepEqual((await runs(page)).map(([n]) => n), [two, three, one], 'pressed twice, it moved twice');
  assert.deepEqual(await focused(), ['compare-run-up', one, '2'], 'at the end, its ↓ is disabled: focus on its ↑');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-run][data-index="0"] [data-testid=compare-run-name]').value.startsWith('one'));
  assert.deepEqual((await runs(page)).map(([n]) => n), [one, two, three]);
  assert.deepEqual(await focused(), ['compare-run-down', one, '0'], 'at the top, its ↑ is disabled: focus on its ↓');
  // Make baseline: the moved report's row keeps focus, on its ↓.
  await page.locator('[data-testid=compare-run][data-index="2"] [data-testid=compare-run-baseline]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-run][data-index="0"] [data-testid=compare-run-name]').value.startsWith('three'));
  assert.deepEqual(await focused(), ['compare-run-down', three, '0']);
  assert.deepEqual(await shownMatrix(page), (await cliMatrix([files[2], files[0], files[1]])).shown, 'the matrix follows the order');

  // Remove: focus goes to the Remove of the report that took its place, or of the one before it
  // at the end of the list.
  for (const [name, every] of [['four', 5], ['five', 4]]) {
    await page.setInputFiles('[data-testid=compare-add-input]', (await reportFile(name, every)).path);
  }
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=compare-run]').length === 5);
  await page.locator('[data-testid=compare-run][data-index="1"] [data-testid=compare-run-remove]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=compare-run]').length === 4);
  assert.deepEqual((await runs(page)).map(([n]) => n), [three, two, 'four.json', 'five.json']);
  assert.deepEqual(await focused(), ['compare-run-remove', two, '1'], 'removed: on the Remove of the report after it');
  await page.locator('[data-testid=compare-run][data-index="3"] [data-testid=compare-run-remove]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=compare-run]').length === 3);
  assert.deepEqual(await focused(), ['compare-run-remove', 'four.json', '2'], 'the last removed: on the Remove of the one before it');
  // Down to two reports the list goes (before and after are back): focus on the card's heading.
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=compare-run]', { state: 'detached' });
  assert.deepEqual(await page.evaluate(() => [document.activeElement?.tagName, document.activeElement?.textContent,
    document.activeElement?.closest('[data-testid=compare-runs]') !== null]), ['H2', 'More reports', true]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
