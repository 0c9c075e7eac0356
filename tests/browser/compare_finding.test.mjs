// The compare view leads with its finding, in the words `figeval compare` prints first: what
// changed and whether the exact McNemar test tells it from chance. The share card comes after
// the results, and a count of 0 lost is not coloured as a loss. Each question that changed is
// listed once and opens to its ranked windows in every report, side by side.
//
// Needs FIGEVAL_BIN.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  missing, appHarness, openApp, scratch, figeval, missEvery, OCTAVE_DATASET, axeViolations,
} from './support.mjs';

const skip = missing({ figeval: true }) || false;
const h = appHarness(skip);
const OCTAVE = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));
const dir = skip ? null : scratch();
after(() => dir?.remove());

/**
 * The report file `figeval score` writes for a capture missing every `every`-th item, its run
 * named `name` (the page and `figeval compare` both call a run by its run.name).
 */
async function reportFile(name, every) {
  const out = `${dir.dir}/${name}.json`;
  const r = await figeval(['score', '--responses', dir.file(`${name}.jsonl`, missEvery(OCTAVE, every)),
    '--dataset', OCTAVE_DATASET, '--out', out, '--name', name]);
  assert.equal(r.code, 0, r.stderr);
  return out;
}

test('the compare view\'s first line is the finding figeval compare prints first, and the share card follows the results', { skip }, async () => {
  const before = await reportFile('before', 1); // every item missed
  const afterFile = await reportFile('after', 7); // all but every seventh hit
  const r = await figeval(['compare', before, afterFile]);
  assert.equal(r.code, 0, r.stderr);
  const cliFinding = r.stdout.split('\n')[1];
  assert.match(cliFinding, /^page_hit_at_3 rose 0\.00 → 0\.85 \(p [0-9.e-]+\);/);

  const page = await openApp(h.browser, h.site.url);
  await page.click('[data-testid=tab-compare]');
  await page.setInputFiles('[data-testid=compare-before-input]', before);
  await page.setInputFiles('[data-testid=compare-after-input]', afterFile);
  await page.waitForSelector('[data-testid=comparison]');
  const findings = await page.$$eval('[data-testid=compare-finding]', (ps) => ps.map((p) => p.textContent));
  assert.deepEqual(findings, [cliFinding], 'one finding, the CLI\'s words');
  // The finding leads; the share card comes after the results.
  const order = await page.$$eval('[data-testid=compare-findings], [data-testid=comparison], [data-testid=compare-share]',
    (els) => els.map((e) => e.dataset.testid));
  assert.deepEqual(order, ['compare-findings', 'comparison', 'compare-share']);
  // Nothing was lost: no lost cell carries the loss colour.
  const lostCells = await page.$$eval('[data-testid=compare-scope] td.lost', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(lostCells, [], 'a count of 0 lost is not red');
  assert.deepEqual(await axeViolations(page), []);

  // The questions behind the numbers: each once (not once per metric and scope), with what it
  // gained; one opens to its ranked windows before and after, side by side.
  assert.equal(await page.locator('[data-testid=compare-scope] details').count(), 0, 'no per-metric lists in the scope cards');
  const json = JSON.parse((await figeval(['compare', before, afterFile, '--format', 'json'])).stdout);
  const overall = json.scopes.find((sc) => sc.scope === 'overall');
  const moved = new Set(overall.metrics.flatMap((m) => [...m.gained, ...m.lost]));
  assert.match(await page.locator('[data-testid=changed-questions] h2').textContent(), new RegExp(`^Questions that changed: ${moved.size}$`));
  const first = page.locator('[data-testid=changed-question]').first();
  const q = await first.getAttribute('data-question');
  const LABEL = { page_hit_at_3: 'page hit @3', precise_page_hit_at_3: 'precise @3', figure_chunk_at_3: 'figure chunk @3', page_hit_at_5: 'page hit @5' };
  const gainedOn = overall.metrics.filter((m) => m.gained.includes(q)).map((m) => `+ gained ${LABEL[m.metric]}`);
  assert.deepEqual(await first.locator('summary .pip').allTextContents(), gainedOn, 'every metric it moved on, in one row');
  await first.locator('summary').click();
  const sides = first.locator('[data-testid=side-by-side] .side');
  assert.deepEqual(await sides.evaluateAll((ss) => ss.map((x) => x.querySelector(':scope > h3').textContent)), ['before', 'after'], 'called by their runs, not their files');
  assert.equal(await sides.locator('[data-testid=ranked-window]').count(), 2);
  // Before, every item missed; after, this one hit: its window after has a match on its page.
  assert.deepEqual(await sides.evaluateAll((ss) => ss.map((x) => x.querySelectorAll('[data-testid=on-expected][data-on=true]').length > 0)), [false, true]);
  assert.deepEqual(await axeViolations(page), []);

  // Three reports: one finding per run against the baseline, named.
  await page.setInputFiles('[data-testid=compare-add-input]', await reportFile('third', 3));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=compare-finding]').length === 2);
  const many = await page.$$eval('[data-testid=compare-finding]', (ps) => ps.map((p) => p.textContent));
  assert.equal(many[0], `after: ${cliFinding}`);
  assert.match(many[1], /^third: page_hit_at_3 rose 0\.00 → /);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
