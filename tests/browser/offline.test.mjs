// Offline scoring in the page equals `figeval score` on the same capture, in every capture
// form; a report file from the CLI opens as the CLI wrote it; compare equals `figeval compare`.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, missing, serveDist, launch, openApp, loadBundled, setField, readGroupTable,
  assertTableMatchesReport, figevalReport, figeval, scratch, variedBodies,
} from './support.mjs';

const skip = missing({ figeval: true }) || false;
let site, browser, tmp;
const dataset = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));

before(async () => {
  if (skip) return;
  site = await serveDist();
  browser = await launch();
  tmp = scratch();
});
after(async () => {
  await browser?.close();
  await site?.stop();
  tmp?.remove();
});

const bodies = (shift = 0) => variedBodies(dataset, shift);

const forms = {
  'bare bodies, one per line': (bs) => bs.map((b) => JSON.stringify(b)).join('\n') + '\n',
  'envelopes, one per line': (bs) => bs.map((b) => JSON.stringify({ question: b.query, request: { base_url: 'http://127.0.0.1:1/api', top_k: 5, cache_mode: 'bypass' }, response: b })).join('\n'),
  'a JSON array of bodies': (bs) => JSON.stringify(bs, null, 2),
};

async function scoreInPage(text, { allowMissing = false } = {}) {
  const page = await openApp(browser, site.url);
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

test('allow missing scores the rest, like figeval score --allow-missing', { skip }, async () => {
  const text = forms['bare bodies, one per line'](bodies().slice(3));
  const file = tmp.file('partial.jsonl', text);
  const refused = await figeval(['score', '--responses', file, '--dataset', OCTAVE_DATASET]);
  assert.equal(refused.code, 2);
  const page = await scoreInPage(text);
  assert.match(await page.locator('[data-testid=error-banner]').textContent(), /3 item\(s\) with no response/);
  await page.context().close();
  const cli = await figevalReport(['score', '--responses', file, '--dataset', OCTAVE_DATASET, '--allow-missing']);
  const allowed = await scoreInPage(text, { allowMissing: true });
  assertTableMatchesReport(assert, await readGroupTable(allowed), cli);
  assert.match(await allowed.locator('[data-testid=unscored]').textContent(), /3 item\(s\) had no response/);
  await allowed.context().close();
});

test('filters narrow the items by group, by hit or miss, and by text', { skip }, async () => {
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
  const needle = cli.per_item[4].figure_ref;
  await setField(page, 'filter-text', needle);
  const shown = await page.locator('[data-testid=item-row]').evaluateAll((rs) => rs.map((r) => r.dataset.question));
  assert.ok(shown.includes(cli.per_item[4].question));
  await page.context().close();
});

test('a report file written by figeval opens with its numbers', { skip }, async () => {
  const capture = tmp.file('r.jsonl', forms['bare bodies, one per line'](bodies()));
  const out = `${tmp.dir}/report.json`;
  const cli = await figevalReport(['score', '--responses', capture, '--dataset', OCTAVE_DATASET, '--out', out]);
  const page = await openApp(browser, site.url);
  await page.setInputFiles('[data-testid=report-input]', out);
  assertTableMatchesReport(assert, await readGroupTable(page), cli);
  await page.context().close();
});

test('compare shows the deltas, movers and p-values figeval compare computes', { skip }, async () => {
  const beforeFile = `${tmp.dir}/before.json`;
  const afterFile = `${tmp.dir}/after.json`;
  await figevalReport(['score', '--responses', tmp.file('b.jsonl', forms['bare bodies, one per line'](bodies(0))), '--dataset', OCTAVE_DATASET, '--out', beforeFile]);
  await figevalReport(['score', '--responses', tmp.file('a.jsonl', forms['bare bodies, one per line'](bodies(1))), '--dataset', OCTAVE_DATASET, '--out', afterFile]);
  const r = await figeval(['compare', beforeFile, afterFile, '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const cli = JSON.parse(r.stdout);
  const page = await openApp(browser, site.url);
  await page.click('[data-testid=tab-compare]');
  await page.setInputFiles('[data-testid=compare-before-input]', beforeFile);
  await page.setInputFiles('[data-testid=compare-after-input]', afterFile);
  await page.waitForSelector('[data-testid=comparison]');
  for (const scope of cli.scopes) {
    const card = page.locator(`[data-testid=compare-scope][data-scope="${scope.scope}"]`);
    for (const m of scope.metrics) {
      const cells = await card.locator(`tr[data-metric="${m.metric}"] td`).allTextContents();
      assert.equal(cells[0], `${m.before.toFixed(4)} (${m.before_hits})`, `${scope.scope} ${m.metric} before`);
      assert.equal(cells[1], `${m.after.toFixed(4)} (${m.after_hits})`, `${scope.scope} ${m.metric} after`);
      assert.ok(cells[2].startsWith(m.delta > 0 ? `+${m.delta.toFixed(4)}` : m.delta.toFixed(4).replace('-0.0000', '0.0000')), `${scope.scope} ${m.metric} delta ${cells[2]}`);
      assert.equal(cells[3], m.gained.length ? `+${m.gained.length}` : '0', `${scope.scope} ${m.metric} gained`);
      assert.equal(cells[4], m.lost.length ? `−${m.lost.length}` : '0', `${scope.scope} ${m.metric} lost`);
      assert.equal(Number(cells[5]).toFixed(4), m.p_value.toFixed(4), `${scope.scope} ${m.metric} p`);
    }
  }
  const guide = await page.locator('[data-testid=reading-guide] li').allTextContents();
  assert.deepEqual(guide, cli.reading_guide);
  if (cli.prose_verdict) assert.equal(await page.locator('[data-testid=prose-verdict]').textContent(), cli.prose_verdict);
  await page.context().close();
});
