// The app on its own (no deployment, no CLI): it loads under its Content-Security-Policy,
// renders hostile text as text, lists dataset errors, and round-trips share links.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import path from 'node:path';
import {
  DIST, REPO, missing, dropFile, serveDist, appHarness, openApp, loadBundled, setField, readGroupTable, searchBody,
  linkReport,
} from './support.mjs';

const skip = missing() || false;
const h = appHarness(skip);

const HOSTILE = '<img src=x onerror="window.__xss=1"> Which <b>figure</b> shows <script>window.__xss=2</script>?';

function hostileDataset() {
  return {
    corpus_id: 'demo <i>corpus</i>',
    items: [
      { question: HOSTILE, expected_pages: [4], figure_ref: '<svg onload="window.__xss=3">', kind: 'locate', tags: ['figure'] },
      { question: 'A plain question?', expected_pages: [9], figure_ref: 'Figure 2', kind: 'content', tags: [] },
      { question: 'A prose question?', expected_pages: [2], figure_ref: 'Section 1', kind: 'locate', tags: ['prose'] },
    ],
  };
}

async function scoreHostile(page) {
  const d = hostileDataset();
  await setField(page, 'dataset-input', JSON.stringify(d, null, 2));
  await page.waitForSelector('[data-testid=dataset-status]');
  const bodies = [
    searchBody(HOSTILE, [[4, 4]], 'figure'),
    searchBody('A plain question?', [[1, 1], [2, 2], [3, 3], [9, 9]]),
    searchBody('A prose question?', [[1, 12]]),
  ];
  bodies[0].matches[0].chunk_id = '<b>chunk</b>';
  bodies[0].matches[0].metadata.figure.summary = '<img src=y onerror="window.__xss=4"> a line plot';
  await setField(page, 'responses-input', bodies.map((b) => JSON.stringify(b)).join('\n'));
  await page.click('[data-testid=score-offline]');
  return readGroupTable(page);
}

test('the built page has no inline script and declares the CSP', { skip }, () => {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  assert.match(html, /http-equiv="Content-Security-Policy"/);
  assert.match(html, /script-src 'self' 'wasm-unsafe-eval'/);
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    assert.match(m[1], /\bsrc=/, `every script has a src: ${m[0].slice(0, 120)}`);
    assert.equal(m[2].trim(), '', 'no inline script body');
  }
});

test('the app loads under its CSP with no violation and no console error', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await page.waitForSelector('[data-testid=dataset-status]');
  const violations = await page.evaluate(() => window.__cspViolations || []);
  assert.deepEqual(violations, []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('markup in a question, a figure ref, a chunk id or a summary stays text', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await scoreHostile(page);
  const row = page.locator('[data-testid=item-row]').first();
  assert.equal(await row.getAttribute('data-question'), HOSTILE);
  assert.ok((await row.textContent()).includes(HOSTILE), 'the question is shown literally');
  await row.locator('[data-testid=item-toggle]').click();
  await page.waitForSelector('[data-testid=ranked-window]');
  const text = await page.locator('[data-testid=ranked-window]').first().textContent();
  assert.ok(text.includes('<b>chunk</b>'));
  assert.ok(text.includes('<img src=y onerror="window.__xss=4"> a line plot'));
  const injected = await page.evaluate(() => ({
    xss: window.__xss, imgs: document.querySelectorAll('img').length,
    bold: document.querySelectorAll('main b, main i, main svg[onload]').length,
    scripts: [...document.scripts].filter((s) => !s.src).length,
  }));
  assert.deepEqual(injected, { xss: undefined, imgs: 0, bold: 0, scripts: 0 });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('every dataset error is listed, worded by figeval', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await setField(page, 'dataset-input', JSON.stringify({
    corpus_id: 'x', extra: 1,
    items: [
      { question: '<img src=x onerror="window.__xss=1">', expected_pages: [0], figure_ref: 'F', kind: 'maybe' },
      { question: 'dup', expected_pages: [1], figure_ref: 'F', kind: 'locate' },
      { question: 'dup', expected_pages: [1], figure_ref: 'F', kind: 'locate' },
    ],
  }));
  const errors = await page.locator('[data-testid=dataset-error]').allTextContents();
  assert.ok(errors.length >= 4, errors.join('\n'));
  assert.ok(errors.some((e) => e.startsWith('dataset: extra: unknown key')), errors.join('\n'));
  assert.ok(errors.some((e) => e.includes('item 1 ("<img src=x onerror=\\"window.__xss=1\\">"): kind')), errors.join('\n'));
  assert.ok(errors.some((e) => e.includes('item 3 ("dup"): question: duplicates the question of item 2')), errors.join('\n'));
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  await setField(page, 'dataset-input', '{"corpus_id": "x",\n "items": [}');
  const syntax = await page.locator('[data-testid=dataset-error]').allTextContents();
  assert.equal(syntax.length, 1);
  assert.match(syntax[0], /^line 2, column \d+: not valid JSON: /);
  await page.context().close();
});

test('a share link opens the same report in a fresh page', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  const table = await scoreHostile(page);
  const link = await page.locator('[data-testid=share-link]').inputValue();
  assert.ok(link.startsWith(h.site.url + '#report='), link.slice(0, 80));
  const other = await openApp(h.browser, link);
  assert.deepEqual(await readGroupTable(other), table);
  const rows = await other.locator('[data-testid=item-row]').evaluateAll((rs) => rs.map((r) => r.dataset.question));
  assert.deepEqual(rows, [HOSTILE, 'A plain question?', 'A prose question?']);
  assert.equal(await other.evaluate(() => window.__xss), undefined);
  assert.deepEqual(other.problems, []);
  await other.context().close();
  await page.context().close();
});

test('a corrupt or oversized share link shows a message, never a crash', { skip }, async () => {
  for (const [fragment, expected] of [
    ['#report=%%%not-base64', /damaged: not base64url/],
    ['#report=AAAA', /damaged|does not hold a figeval report/],
    ['#report=' + 'A'.repeat((1 << 20) + 10), /too large for a link/],
  ]) {
    const page = await openApp(h.browser, h.site.url + fragment);
    const banner = page.locator('[data-testid=error-banner]');
    await banner.waitFor();
    assert.match(await banner.textContent(), /This share link cannot be opened/);
    assert.match(await banner.textContent(), expected);
    // The app still works: a bundled dataset loads.
    await loadBundled(page, 'octave-manual-figures');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('a share link that inflates past 16 MiB (a DEFLATE bomb) is refused by boot.js\'s inflate', { skip }, async () => {
  // 16 MiB + 1 of spaces deflate to about 16 KB: a link well under the 1 MiB size limit.
  const bomb = deflateRawSync(Buffer.alloc((16 << 20) + 1, ' ')).toString('base64url');
  const page = await openApp(h.browser, `${h.site.url}#report=${bomb}`);
  const banner = page.locator('[data-testid=error-banner]');
  await banner.waitFor();
  assert.match(await banner.textContent(), /inflates to more than 16777216 bytes and was refused/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** The report a share link carries, and a link carrying `report`. */
const reportLink = (url, report) => `${url}#report=${deflateRawSync(Buffer.from(JSON.stringify(report))).toString('base64url')}`;

test('a report whose numbers contradict its items is refused with a banner naming the disagreement', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await scoreHostile(page);
  const report = linkReport(await page.locator('[data-testid=share-link]').inputValue());
  // A tampered report: a hit count no item supports, with a rate to match it.
  // Without the rate's interval, as a report from before intervals (an interval is checked
  // against its own hits).
  const tampered = { ...report, page_hit_at_3_hits: 999, page_hit_at_3: 0.1 };
  delete tampered.page_hit_at_3_ci;
  const expected = `page_hit_at_3_hits is 999 but per_item gives ${report.page_hit_at_3_hits}`;

  await page.setInputFiles('[data-testid=report-input]', {
    name: 'tampered.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(tampered)),
  });
  const banner = page.locator('[data-testid=error-banner]');
  await banner.waitFor();
  assert.match(await banner.textContent(), /tampered\.json was refused/);
  assert.ok((await banner.textContent()).includes(`the report disagrees with itself: ${expected}`), await banner.textContent());
  await page.context().close();

  const group = structuredClone(report);
  group.by_group.locate.page_hit_at_3_hits = 999;
  delete group.by_group.locate.page_hit_at_3_ci;
  for (const [r, message] of [
    [tampered, expected],
    [group, `by_group.locate.page_hit_at_3_hits is 999 but per_item gives ${report.by_group.locate.page_hit_at_3_hits}`],
  ]) {
    const linked = await openApp(h.browser, reportLink(h.site.url, r));
    const b = linked.locator('[data-testid=error-banner]');
    await b.waitFor();
    assert.match(await b.textContent(), /This share link cannot be opened/);
    assert.ok((await b.textContent()).includes(message), await b.textContent());
    assert.equal(await linked.locator('[data-testid=report-view]').count(), 0, 'a refused report is not shown');
    assert.deepEqual(linked.problems, []);
    await linked.context().close();
  }
});

test('a report without per-item records opens with a visible warning that it cannot be checked', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  const table = await scoreHostile(page);
  assert.equal(await page.locator('[data-testid=unchecked-warning]').count(), 0, 'a checked report has no warning');
  const bare = linkReport(await page.locator('[data-testid=share-link]').inputValue());
  delete bare.per_item;
  await page.context().close();
  const linked = await openApp(h.browser, reportLink(h.site.url, bare));
  const warning = linked.locator('[data-testid=unchecked-warning]');
  await warning.waitFor();
  assert.match(await warning.textContent(), /per_item is empty or missing\), so its numbers cannot be checked/);
  assert.deepEqual(await readGroupTable(linked), table, 'the stated numbers are shown');
  assert.equal(await linked.locator('[data-testid=error-banner]').count(), 0);
  assert.deepEqual(linked.problems, []);
  await linked.context().close();
});

test('top_k below 5 is refused with the reason', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await setField(page, 'top-k', '3');
  const error = page.locator('[data-testid=settings-error][data-field=top_k]');
  assert.match(await error.textContent(), /at least 5, not 3: page_hit_at_5 reads rank 5/);
  assert.equal(await page.locator('[data-testid=run-live]').isDisabled(), true);
  await setField(page, 'top-k', '5');
  assert.equal(await page.locator('[data-testid=run-live]').isDisabled(), false);
  await page.context().close();
});

test('the settings are remembered across visits', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await setField(page, 'base-url', 'http://127.0.0.1:9/api');
  await setField(page, 'concurrency', '2');
  await page.reload();
  await page.waitForSelector('[data-testid=base-url]');
  assert.equal(await page.locator('[data-testid=base-url]').inputValue(), 'http://127.0.0.1:9/api');
  assert.equal(await page.locator('[data-testid=concurrency]').inputValue(), '2');
  await page.context().close();
});

test('a capture that cannot be scored shows figeval\'s capture errors', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await setField(page, 'dataset-input', JSON.stringify(hostileDataset()));
  await setField(page, 'responses-input', '{"query": "A plain question?", "matches": [1]}\nnot json\n');
  await page.click('[data-testid=score-offline]');
  const banner = await page.locator('[data-testid=error-banner]').textContent();
  assert.match(banner, /The responses cannot be scored/);
  assert.match(banner, /problems with the responses/);
  assert.match(banner, /line 1 \(question "A plain question\?"\): the match at rank 1 is a number, not a JSON object/);
  assert.match(banner, /line 2, column \d+: not valid JSON: a word JSON does not know.*; mend the line or delete it/);
  await page.context().close();
});

test('a dataset loads from a dropped file and from a URL', { skip }, async () => {
  const data = await serveDist(path.join(REPO, 'data/eval_datasets'));
  try {
    const page = await openApp(h.browser, h.site.url);
    const d = hostileDataset();
    await dropFile(page, '[data-testid=dataset-input]', 'dropped.json', JSON.stringify(d));
    await page.waitForFunction(() => document.querySelector('.muted.small')?.textContent.includes('dropped.json'));
    assert.match(await page.locator('[data-testid=dataset-status]').textContent(), /3 items/);
    await setField(page, 'dataset-url', `${data.url}octave-manual-figures.json`);
    await page.click('[data-testid=load-dataset-url]');
    await page.waitForFunction(() => document.querySelector('[data-testid=dataset-status]')?.textContent.includes('octave-manual'));
    await setField(page, 'dataset-url', `${data.url}missing.json`);
    await page.click('[data-testid=load-dataset-url]');
    assert.match(await page.locator('[data-testid=error-banner]').textContent(), /HTTP 404/);
    await page.context().close();
  } finally {
    await data.stop();
  }
});

test('dropped responses are scored like pasted ones', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await setField(page, 'dataset-input', JSON.stringify(hostileDataset()));
  const pasted = await scoreHostile(page);
  await page.click('[data-testid=tab-workbench]');
  await setField(page, 'responses-input', '');
  const text = [
    searchBody(HOSTILE, [[4, 4]], 'figure'),
    searchBody('A plain question?', [[1, 1], [2, 2], [3, 3], [9, 9]]),
    searchBody('A prose question?', [[1, 12]]),
  ].map((b) => JSON.stringify(b)).join('\n');
  await dropFile(page, '[data-testid=responses-input]', 'capture.jsonl', text);
  await page.waitForFunction(() => document.querySelector('[data-testid=responses-input]').value.length > 0);
  await page.click('[data-testid=score-offline]');
  assert.deepEqual(await readGroupTable(page), pasted);
  await page.context().close();
});

test('a broken line of pasted responses is one problem naming its line and question, with the right fix', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await setField(page, 'dataset-input', JSON.stringify(hostileDataset()));
  await page.waitForSelector('[data-testid=dataset-status]');
  const lines = [
    JSON.stringify(searchBody('A plain question?', [[9, 9]])),
    // A stray comma after the last match: the line's question can still be read.
    JSON.stringify(searchBody('A prose question?', [[2, 2]])).replace('}]', '},]'),
    JSON.stringify(searchBody(HOSTILE, [[4, 4]], 'figure')),
  ];
  await setField(page, 'responses-input', lines.join('\n'));
  await page.click('[data-testid=score-offline]');
  const banner = await page.locator('[data-testid=error-banner]').textContent();
  assert.match(banner, /1 problem with the responses/);
  assert.match(banner, /line 2 \(question "A prose question\?"\), column \d+: not valid JSON: .*; mend the line or delete it/);
  assert.doesNotMatch(banner, /no response/, 'the item is not counted again as unanswered');
  assert.doesNotMatch(banner, /allow missing/i, 'allowing missing responses would drop the item, not mend the line');
  await page.context().close();
});

test('a report is called by its run: the name shows above the headline, edits, and goes into links, downloads and compare', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url, { acceptDownloads: true });
  await scoreHostile(page);
  const report = linkReport(await page.locator('[data-testid=share-link]').inputValue());
  report.run.name = 'figures on';
  await page.setInputFiles('[data-testid=report-input]', {
    name: 'octave-figures-on.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(report)),
  });
  await page.waitForSelector('[data-testid=group-table]');
  assert.equal(await page.locator('[data-testid=report-name]').inputValue(), 'figures on');
  const above = await page.evaluate(() => document.querySelector('[data-testid=report-name]').getBoundingClientRect().bottom
    <= document.querySelector('[data-testid=headline]').getBoundingClientRect().top);
  assert.ok(above, 'the name is above the headline');
  assert.match(await page.locator('[data-testid=report-facts]').textContent(), /sourceoctave-figures-on\.json/);
  await page.locator('[data-testid=report-name]').fill('  reranker on ');
  await page.locator('[data-testid=report-name]').press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=report-name]').value === 'reranker on');
  assert.equal(linkReport(await page.locator('[data-testid=share-link]').inputValue()).run.name, 'reranker on');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-report]')]);
  assert.equal(JSON.parse(readFileSync(await download.path(), 'utf8')).run.name, 'reranker on');
  // A blank name is not taken.
  await page.locator('[data-testid=report-name]').fill('   ');
  await page.locator('[data-testid=report-name]').press('Enter');
  assert.equal(await page.locator('[data-testid=report-name]').inputValue(), 'reranker on');
  // Compared with a file: both are called by their runs, not their files.
  await page.click('[data-testid=compare-as-before]');
  const other = { ...report, run: { ...report.run, name: 'figures off' } };
  await page.setInputFiles('[data-testid=compare-after-input]', {
    name: 'octave-figures-off.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(other)),
  });
  await page.waitForSelector('[data-testid=comparison]');
  const view = await page.locator('[data-testid=compare-view]').textContent();
  assert.ok(view.includes('reranker on') && view.includes('figures off'), view.slice(0, 400));
  assert.ok(!view.includes('octave-figures-off.json'), 'not named after its file');
  await page.context().close();
});

test('the depth typed beside offline scoring is stated in the report', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await setField(page, 'offline-top-k', '10');
  const table = await scoreHostile(page);
  assert.ok(table, 'scored');
  assert.equal(linkReport(await page.locator('[data-testid=share-link]').inputValue()).top_k, 10);
  await page.click('[data-testid=tab-workbench]');
  await setField(page, 'offline-top-k', 'ten');
  await page.click('[data-testid=score-offline]');
  assert.match(await page.locator('[data-testid=error-banner]').textContent(), /top_k: "ten" is not a depth; give a whole number of 1 or more/);
  await page.context().close();
});
