// Offline scoring in the page equals `figeval score` on the same capture, in every capture
// form; a report file from the CLI opens as the CLI wrote it; compare equals `figeval compare`,
// every rate with its interval and every change with its paired interval.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, loadBundled, setField, readGroupTable,
  assertTableMatchesReport, figevalReport, figeval, scratch, variedBodies, rateText, signed,
  deltaIntervalText, intervalData, intervalText, fixed, searchBody, showView,
} from './support.mjs';

const skip = missing({ figeval: true }) || false;
const h = appHarness(skip);
let tmp;
const dataset = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));

before(async () => {
  if (skip) return;
  tmp = scratch();
});
after(async () => {
  tmp?.remove();
});

const bodies = (shift = 0) => variedBodies(dataset, shift);

// Each metric's name wherever a table names it: its label, then its report key.
const NAMES = {
  page_hit_at_3: 'page hit @3', page_hit_at_5: 'page hit @5', precise_page_hit_at_3: 'precise @3',
  figure_chunk_at_3: 'figure chunk @3', page_mrr: 'MRR',
};
/** [label, key] of each header cell under `selector` that names a metric. */
const metricNames = (page, selector) => page.$$eval(selector, (ths) => ths
  .filter((th) => th.querySelector('code'))
  .map((th) => [th.childNodes[0].textContent.trim(), th.querySelector('code').textContent]));

const forms = {
  'bare bodies, one per line': (bs) => bs.map((b) => JSON.stringify(b)).join('\n') + '\n',
  'envelopes, one per line': (bs) => bs.map((b) => JSON.stringify({ question: b.query, request: { base_url: 'http://127.0.0.1:1/api', top_k: 5, cache_mode: 'bypass' }, response: b })).join('\n'),
  'a JSON array of bodies': (bs) => JSON.stringify(bs, null, 2),
};

async function scoreInPage(text, { allowMissing = false } = {}) {
  const page = await openApp(h.browser, h.site.url);
  await loadBundled(page, 'octave-manual-figures');
  await setField(page, 'responses-input', text);
  if (allowMissing) await page.check('[data-testid=allow-missing]');
  await page.click('[data-testid=score-offline]');
  return page;
}

for (const [form, render] of Object.entries(forms)) {
  test(`offline scoring of ${form} shows the numbers figeval score prints`, { skip }, async () => {
    const text = render(bodies());
    const file = tmp.file(`capture-${form.replace(/\W+/g, '-')}.jsonl`, text);
    const cli = await figevalReport(['score', '--responses', file, '--dataset', OCTAVE_DATASET]);
    const page = await scoreInPage(text);
    assertTableMatchesReport(assert, await readGroupTable(page), cli);
    const rows = await page.locator('[data-testid=item-row]').evaluateAll((rs) => rs.map((r) => [r.dataset.question, r.dataset.hit]));
    assert.deepEqual(rows, cli.per_item.map((r) => [r.question, String(r.page_hit_at_3)]), 'items in dataset order with their outcome');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

/**
 * The form of a p-value's text (`render::p_value`): `0.50`, `0.062`, `0.0020`, `6.0e-8`, `0`, and
 * `1` for a p that rounds to 1 (never `1.00`).
 */
const pForm = (p) => (p >= 0.995 ? /^1$/ : p === 0 ? /^0$/ : p < 0.001 ? /^\d\.\de-\d+$/
  : p >= 0.0995 ? /^0\.\d\d$/ : p >= 0.00995 ? /^0\.0\d\d$/ : /^0\.00\d\d$/);

/** The headline's words and font, the report's `run` fact, and any "(s)" plural on every view. */
async function wording(page) {
  await page.waitForSelector('[data-testid=group-table]');
  await showView(page, 'report');
  const headline = await page.locator('[data-testid=headline] .headline-label').evaluate((e) => [e.textContent, getComputedStyle(e).fontFamily]);
  const run = await page.locator('[data-testid=report-facts] .fact').evaluateAll((fs) => fs
    .map((f) => [f.querySelector('dt').textContent, f.querySelector('dd').textContent]).find(([k]) => k === 'run')?.[1]);
  const plurals = [];
  for (const view of ['report', 'workbench', 'compare', 'runs', 'document']) {
    await showView(page, view);
    if (view === 'runs') await page.waitForSelector('[data-testid=history-kept] [data-testid=history-row]');
    plurals.push(...(await page.locator('body').innerText()).match(/\S*[A-Za-z]\((s|es)\)\S*/g) ?? []);
  }
  return { headline, run, plurals };
}

test('the headline reads in words, a capture or a link states no run time, and no view writes "(s)"', { skip }, async () => {
  const page = await scoreInPage(forms['bare bodies, one per line'](bodies()));
  const scored = await wording(page);
  assert.equal(scored.headline[0], 'page hit @3 (overall)', 'the headline names its metric in words');
  assert.doesNotMatch(scored.headline[1], /mono/i, `not a monospace key: ${scored.headline[1]}`);
  assert.ok(scored.run, 'the report states how it was made');
  assert.doesNotMatch(scored.run, /\d s\b/, `a scored capture has no run time of its own: ${scored.run}`);
  assert.deepEqual(scored.plurals, [], 'no "(s)" plural on any view');
  // The same report from its share link.
  await showView(page, 'report');
  const link = await page.locator('[data-testid=share-link]').inputValue();
  const other = await openApp(h.browser, link);
  const linked = await wording(other);
  assert.equal(linked.headline[0], 'page hit @3 (overall)');
  assert.doesNotMatch(linked.run, /\d s\b/, `a link has no run time: ${linked.run}`);
  assert.deepEqual(linked.plurals, []);
  assert.deepEqual(other.problems, []);
  await other.context().close();
  await page.context().close();
});

test('allow missing scores the rest, like figeval score --allow-missing', { skip }, async () => {
  const text = forms['bare bodies, one per line'](bodies().slice(3));
  const file = tmp.file('partial.jsonl', text);
  const refused = await figeval(['score', '--responses', file, '--dataset', OCTAVE_DATASET]);
  assert.equal(refused.code, 2);
  const page = await scoreInPage(text);
  assert.match(await page.locator('[data-testid=error-banner]').textContent(), /3 items with no response/);
  await page.context().close();
  const cli = await figevalReport(['score', '--responses', file, '--dataset', OCTAVE_DATASET, '--allow-missing']);
  const allowed = await scoreInPage(text, { allowMissing: true });
  assertTableMatchesReport(assert, await readGroupTable(allowed), cli);
  assert.match(await allowed.locator('[data-testid=unscored]').textContent(), /3 items had no response/);
  await allowed.context().close();
});

test('filters narrow the items by group, by hit or miss on a metric, and by text, and sort them by first hit rank', { skip }, async () => {
  const text = forms['bare bodies, one per line'](bodies());
  const cli = await figevalReport(['score', '--responses', tmp.file('f.jsonl', text), '--dataset', OCTAVE_DATASET]);
  const page = await scoreInPage(text);
  const count = () => page.locator('[data-testid=item-row]').count();
  assert.equal(await count(), cli.per_item.length);
  await page.selectOption('[data-testid=filter-outcome]', 'miss');
  assert.equal(await count(), cli.per_item.filter((r) => !r.page_hit_at_3).length);
  assert.equal(await page.locator('[data-testid=item-row][data-hit=true]').count(), 0);
  await page.selectOption('[data-testid=filter-outcome]', 'all');
  await page.selectOption('[data-testid=filter-group]', 'prose');
  assert.equal(await count(), cli.per_item.filter((r) => r.group === 'prose').length);
  await page.selectOption('[data-testid=filter-group]', '');
  // Hit or miss on another metric; the order by first hit rank, equal ranks in dataset order.
  const questions = () => page.locator('[data-testid=item-row]').evaluateAll((rs) => rs.map((r) => r.dataset.question));
  await page.selectOption('[data-testid=filter-metric]', 'figure_chunk_at_3');
  await page.selectOption('[data-testid=filter-outcome]', 'miss');
  const figureMisses = cli.per_item.filter((r) => !r.figure_chunk_at_3).map((r) => r.question);
  assert.notEqual(figureMisses.length, cli.per_item.filter((r) => !r.page_hit_at_3).length);
  assert.deepEqual(await questions(), figureMisses);
  await page.selectOption('[data-testid=filter-outcome]', 'all');
  await page.selectOption('[data-testid=filter-metric]', 'page_hit_at_3');
  const rank = (r) => r.first_hit_rank ?? Infinity;
  const sorted = (dir) => cli.per_item.map((r, i) => [r, i])
    .sort(([a, i], [b, j]) => (rank(a) === rank(b) ? i - j : dir * (rank(a) < rank(b) ? -1 : 1)))
    .map(([r]) => r.question);
  await page.selectOption('[data-testid=items-order]', 'best');
  assert.deepEqual(await questions(), sorted(1));
  await page.selectOption('[data-testid=items-order]', 'worst');
  assert.deepEqual(await questions(), sorted(-1));
  assert.notDeepEqual(sorted(1), cli.per_item.map((r) => r.question));
  await page.selectOption('[data-testid=items-order]', 'dataset');
  assert.deepEqual(await questions(), cli.per_item.map((r) => r.question));
  const tableNames = await metricNames(page, '[data-testid=group-table] thead th');
  assert.equal(tableNames.length, 5);
  for (const [label, key] of tableNames) assert.equal(label, NAMES[key], key);
  const needle = cli.per_item[4].figure_ref;
  await setField(page, 'filter-text', needle);
  const shown = await page.locator('[data-testid=item-row]').evaluateAll((rs) => rs.map((r) => r.dataset.question));
  assert.ok(shown.includes(cli.per_item[4].question));
  // Text that is not ASCII is lowercased by the browser (the wasm carries no case tables): the
  // Kelvin sign U+212A lowercases to an ASCII k, so this needle finds what its ASCII form does.
  const word = cli.per_item.map((r) => r.question.match(/\w*k\w*/i)?.[0]).find(Boolean);
  const finds = (r) => [r.question, r.figure_ref, ...(r.tags ?? [])].some((t) => (t ?? '').toLowerCase().includes(word.toLowerCase()));
  await setField(page, 'filter-text', word.toUpperCase().replace('K', '\u212A'));
  const kelvin = await page.locator('[data-testid=item-row]').evaluateAll((rs) => rs.map((r) => r.dataset.question));
  assert.deepEqual(kelvin, cli.per_item.filter(finds).map((r) => r.question));
  assert.ok(kelvin.length > 0, word);
  await page.context().close();
});

test('the ranking table shows the ranking metrics figeval score states, and why the others are not', { skip }, async () => {
  // Envelopes record top_k 5: the metrics at 5 are stated, those at 10 are not.
  const text = forms['envelopes, one per line'](bodies());
  const cli = await figevalReport(['score', '--responses', tmp.file('ranking.jsonl', text), '--dataset', OCTAVE_DATASET]);
  const page = await scoreInPage(text);
  const rows = await page.$$eval('[data-testid=ranking-table] tbody tr', (trs) => trs.map((tr) => [tr.dataset.group,
    [...tr.querySelectorAll('td')].map((td) => [td.dataset.metric, td.dataset.rate, td.dataset.ci ?? null])]));
  const scopes = { ...cli.by_group, overall: cli };
  assert.deepEqual(rows.map(([g]) => g), Object.keys(scopes));
  let stated = 0;
  for (const [group, cells] of rows) {
    assert.deepEqual(cells.map(([m]) => m), ['ndcg_at_5', 'ndcg_at_10', 'recall_at_5', 'recall_at_10']);
    for (const [metric, rate, ci] of cells) {
      const want = scopes[group][metric];
      assert.equal(rate, want === null ? 'null' : fixed(want, 4), `${group} ${metric}`);
      const wantCi = scopes[group][`${metric}_ci`];
      assert.equal(ci, wantCi ? intervalData(wantCi) : null, `${group} ${metric} interval`);
      if (want !== null) stated += 1;
    }
  }
  assert.ok(stated > 0 && stated < rows.length * 4, 'some stated (at 5), some not (at 10)');
  assert.equal(await page.textContent('[data-testid=ranking-note]'), cli.ranking_note);
  await page.context().close();
});

test("a prose row's figure_chunk_at_3 is a control, not marked as a miss", { skip }, async () => {
  // Every item hits at rank 1 with a text chunk: figure_chunk_at_3 is 0 in every group.
  const text = dataset.items.map((it) => JSON.stringify(searchBody(it.question, [[it.expected_pages[0], it.expected_pages[0]]]))).join('\n');
  const page = await scoreInPage(text);
  const cell = (group) => page.locator(`[data-testid=group-table] tr[data-group=${group}] td[data-metric=figure_chunk_at_3]`);
  const looks = (group) => cell(group).evaluate((td) => ({ classes: [...td.classList], color: getComputedStyle(td.querySelector('.rate')).color, title: td.title, rate: td.dataset.rate }));
  const [prose, locate] = [await looks('prose'), await looks('locate')];
  assert.equal(prose.rate, '0.0000');
  assert.equal(locate.rate, '0.0000');
  assert.ok(locate.classes.includes('zero'), 'a figure group at 0 is marked');
  assert.ok(!prose.classes.includes('zero') && prose.classes.includes('control'), JSON.stringify(prose));
  assert.notEqual(prose.color, locate.color, 'the prose zero is not drawn in the miss colour');
  assert.match(prose.title, /prose items ask for no figure/);
  await page.context().close();
});

test('a report file written by figeval opens with its numbers', { skip }, async () => {
  const capture = tmp.file('r.jsonl', forms['bare bodies, one per line'](bodies()));
  const out = `${tmp.dir}/report.json`;
  const cli = await figevalReport(['score', '--responses', capture, '--dataset', OCTAVE_DATASET, '--out', out]);
  const page = await openApp(h.browser, h.site.url);
  await page.setInputFiles('[data-testid=report-input]', out);
  assertTableMatchesReport(assert, await readGroupTable(page), cli);
  await page.context().close();
});

test('compare shows the rates with their intervals, the deltas with their paired intervals, movers and p-values figeval compare computes', { skip }, async () => {
  const beforeFile = `${tmp.dir}/before.json`;
  const afterFile = `${tmp.dir}/after.json`;
  await figevalReport(['score', '--responses', tmp.file('b.jsonl', forms['bare bodies, one per line'](bodies(0))), '--dataset', OCTAVE_DATASET, '--out', beforeFile, '--name', 'figures off']);
  await figevalReport(['score', '--responses', tmp.file('a.jsonl', forms['bare bodies, one per line'](bodies(1))), '--dataset', OCTAVE_DATASET, '--out', afterFile, '--name', 'figures on']);
  const r = await figeval(['compare', beforeFile, afterFile, '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const cli = JSON.parse(r.stdout);
  const page = await openApp(h.browser, h.site.url);
  await page.click('[data-testid=tab-compare]');
  await page.setInputFiles('[data-testid=compare-before-input]', beforeFile);
  await page.setInputFiles('[data-testid=compare-after-input]', afterFile);
  await page.waitForSelector('[data-testid=comparison]');
  const data = (ci) => (ci ? intervalData(ci) : null);
  let paired = 0;
  for (const scope of cli.scopes) {
    const card = page.locator(`[data-testid=compare-scope][data-scope="${scope.scope}"]`);
    const row = (metric) => card.locator(`tr[data-metric="${metric}"] td`).evaluateAll((tds) => tds.map((td) => [
      td.textContent, td.dataset.ci ?? td.dataset.deltaCi ?? null]));
    for (const m of scope.metrics) {
      const what = `${scope.scope} ${m.metric}`;
      const cells = await row(m.metric);
      // Each rate with its interval, the change with its paired (Newcombe) interval, as the
      // text `figeval compare` prints them.
      assert.deepEqual(cells[0], [rateText(m.before, m.before_hits, scope.n_before, m.before_ci), data(m.before_ci)], `${what} before`);
      assert.deepEqual(cells[1], [rateText(m.after, m.after_hits, scope.n_after, m.after_ci), data(m.after_ci)], `${what} after`);
      assert.equal(cells[2][0], signed(m.delta), `${what} delta`);
      assert.deepEqual(cells[3], [deltaIntervalText(m.delta_ci), data(m.delta_ci)], `${what} delta 95% CI`);
      if (m.delta_ci) paired += 1;
      assert.equal(cells[4][0], m.gained.length ? `+${m.gained.length}` : '0', `${what} gained`);
      assert.equal(cells[5][0], m.lost.length ? `−${m.lost.length}` : '0', `${what} lost`);
      assert.equal(Number(cells[6][0]).toFixed(4), m.p_value.toFixed(4), `${what} p`);
      // One form at every size, as the matrix and the finding write it: two significant figures.
      assert.match(cells[6][0], pForm(m.p_value), `${what} p`);
      assert.ok(Math.abs(Number(cells[6][0]) - m.p_value) <= 0.05 * m.p_value, `${what} p ${cells[6][0]} ~ ${m.p_value}`);
    }
    const mrr = await row('page_mrr');
    const value = (x, ci) => [ci ? `${fixed(x, 4)} (95% CI ${intervalText(ci)})` : fixed(x, 4), data(ci)];
    assert.deepEqual(mrr.slice(0, 3), [value(scope.page_mrr.before, scope.page_mrr.before_ci),
      value(scope.page_mrr.after, scope.page_mrr.after_ci), [signed(scope.page_mrr.delta), null]], `${scope.scope} page_mrr`);
  }
  assert.ok(paired > 0, 'some change has a paired interval');
  // The compare rows name each metric as the group table does: its label, then its key.
  const rowNames = await metricNames(page, '[data-testid=compare-scope] tbody th');
  assert.equal(rowNames.length, cli.scopes.length * 5);
  for (const [label, key] of rowNames) assert.equal(label, NAMES[key], key);
  assert.ok(cli.scopes.some((sc) => sc.page_mrr.before_ci), 'some MRR has its interval');
  // The before and after slots name each report (by its run, not its file) with its headline
  // rate and interval.
  const overall = cli.scopes.find((sc) => sc.scope === 'overall').metrics.find((m) => m.metric === 'page_hit_at_3');
  const n = cli.scopes.find((sc) => sc.scope === 'overall');
  assert.equal(await page.locator('[data-testid=compare-before-name]').textContent(),
    `figures off — corpus ${dataset.corpus_id}, n ${n.n_before}, page_hit_at_3 ${rateText(overall.before, overall.before_hits, n.n_before, overall.before_ci)}`);
  assert.equal(await page.locator('[data-testid=compare-after-name]').textContent(),
    `figures on — corpus ${dataset.corpus_id}, n ${n.n_after}, page_hit_at_3 ${rateText(overall.after, overall.after_hits, n.n_after, overall.after_ci)}`);
  const guide = await page.locator('[data-testid=reading-guide] li').allTextContents();
  assert.deepEqual(guide, cli.reading_guide);
  if (cli.prose_verdict) assert.equal(await page.locator('[data-testid=prose-verdict]').textContent(), cli.prose_verdict);
  await page.context().close();
});
