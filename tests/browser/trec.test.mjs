// The page's TREC run, qrels and query map are byte for byte what `figeval export` writes from
// the same dataset and capture; a capture that cannot be exported shows the core's reason; a
// report opened from a file (no responses at hand) offers no run files.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, loadBundled, setField, figeval,
  figevalReport, scratch, variedBodies, searchBody,
} from './support.mjs';

const skip = missing({ figeval: true }) || false;
const h = appHarness(skip);
const tmp = scratch();
after(() => tmp.remove());
const dataset = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));

const jsonl = (bodies) => bodies.map((b) => JSON.stringify(b)).join('\n') + '\n';

async function scoreInPage(text) {
  const page = await openApp(h.browser, h.site.url, { acceptDownloads: true });
  await loadBundled(page, 'octave-manual-figures');
  await setField(page, 'responses-input', text);
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=report-view]');
  return page;
}

async function download(page, id) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${id}]`)]);
  return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
}

test('the page downloads the run, qrels and query map figeval export writes', { skip }, async () => {
  const text = jsonl(variedBodies(dataset));
  const capture = tmp.file('varied.jsonl', text);
  const out = { qrels: tmp.file('qrels.txt', ''), run: tmp.file('run.txt', ''), queries: tmp.file('queries.jsonl', '') };
  const cli = await figeval(['export', '--dataset', OCTAVE_DATASET, '--responses', capture,
    '--qrels', out.qrels, '--run', out.run, '--queries', out.queries]);
  assert.equal(cli.code, 0, cli.stderr);

  const page = await scoreInPage(text);
  const stem = 'octave-manual';
  for (const [id, file, name] of [
    ['download-trec-run', out.run, `figeval-run-${stem}.txt`],
    ['download-trec-qrels', out.qrels, `figeval-qrels-${stem}.txt`],
    ['download-trec-queries', out.queries, `figeval-queries-${stem}.jsonl`],
  ]) {
    const got = await download(page, id);
    const want = readFileSync(file);
    assert.ok(want.length > 0, `${file} is not empty`);
    assert.equal(got.name, name);
    assert.ok(got.bytes.equals(want), `${id} is byte-identical to figeval export's ${name}:\n${got.bytes}\n---\n${want}`);
  }
  assert.match(await page.locator('[data-testid=trec-note]').textContent(), /ranx.*trec_eval/);
  assert.equal(await page.locator('[data-testid=trec-unavailable]').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a capture with a span too wide to list shows the reason figeval export gives', { skip }, async () => {
  const bodies = variedBodies(dataset);
  const third = dataset.items[2];
  bodies[2] = searchBody(third.question, [[third.expected_pages[0], third.expected_pages[0]], [1, 20001]]);
  const text = jsonl(bodies);
  const capture = tmp.file('wide.jsonl', text);
  const cli = await figeval(['export', '--dataset', OCTAVE_DATASET, '--responses', capture,
    '--qrels', tmp.file('wq.txt', ''), '--run', tmp.file('wr.txt', '')]);
  assert.equal(cli.code, 2, cli.stderr);

  const page = await scoreInPage(text);
  // The files are made on the first click: that click downloads nothing and shows the reason.
  const downloads = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  await page.click('[data-testid=download-trec-run]');
  await page.waitForSelector('[data-testid=trec-unavailable]');
  const shown = (await page.locator('[data-testid=trec-unavailable]').textContent()).trim();
  const reason = shown.replace(/^No TREC run files for these responses: /, '');
  assert.notEqual(reason, shown, shown);
  assert.match(reason, /^item 3 \(q3, .*\): the match at rank 2 cites pages 1–20001/);
  assert.ok(cli.stderr.includes(`${capture}: ${reason}`), `CLI: ${cli.stderr}\npage: ${reason}`);
  for (const id of ['download-trec-run', 'download-trec-qrels', 'download-trec-queries']) {
    assert.equal(await page.locator(`[data-testid=${id}]`).count(), 0, `${id} is absent`);
  }
  assert.deepEqual(downloads, [], 'nothing was downloaded');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a report opened from a file has no responses at hand, so no run files', { skip }, async () => {
  const text = jsonl(variedBodies(dataset));
  const report = await figevalReport(['score', '--responses', tmp.file('r.jsonl', text), '--dataset', OCTAVE_DATASET]);
  const page = await openApp(h.browser, h.site.url);
  await page.setInputFiles('[data-testid=report-input]', {
    name: 'report.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(report)),
  });
  await page.waitForSelector('[data-testid=report-view]');
  await page.locator('[data-testid=download-report]').waitFor();
  for (const id of ['download-trec-run', 'download-trec-qrels', 'download-trec-queries', 'download-report-capture', 'trec-note', 'trec-unavailable']) {
    assert.equal(await page.locator(`[data-testid=${id}]`).count(), 0, `${id} is absent`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
