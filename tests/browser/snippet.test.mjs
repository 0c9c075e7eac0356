// What the matches said (`match-snippet`): a ranked window shows, as text, the start
// of each match's `content` (its first 300 characters, whitespace folded, "…" when cut) and its
// figure summary, whenever the page read the responses (a scored capture, a live run); a
// report opened from a file or a link has no responses, and shows none.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, loadBundled, setField, scratch,
} from './support.mjs';

const skip = missing() || false;
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

const LONG = `${'Long   content\n'.repeat(40)}<b>markup stays text</b>`;
// A figure summary longer than the 200 characters a report keeps of it.
const LONG_SUMMARY = 'A contour plot of the peaks function over a square grid, drawn with ten levels. '.repeat(4);

/** Six matches per item: rank 1 long content with a figure summary, rank 2 markup, rank 3 no
 * content string, ranks 4–6 short; every one on the item's first expected page. */
function bodies() {
  return dataset.items.map((it, i) => {
    const page = it.expected_pages[0];
    const m = (content, extra = {}) => ({ chunk_id: `c${i}-${Object.keys(extra).length}`, content,
      provenance: { page_start: page, page_end: page }, metadata: { chunk_kind: 'text' }, ...extra });
    return { query: it.question, matches: [
      m(LONG, { metadata: { chunk_kind: 'figure', figure: { summary: i === 1 ? LONG_SUMMARY : `A plot for item ${i}.` } } }),
      m('<img src=x onerror="window.__pwned=1">'),
      m(42),
      m('four'), m('five'), m('six'),
    ] };
  });
}

test('a scored capture shows what each ranked match said, as text, cut at 300 characters', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url, { acceptDownloads: true });
  await loadBundled(page, 'octave-manual-figures');
  await setField(page, 'responses-input', bodies().map((b) => JSON.stringify(b)).join('\n'));
  await page.click('[data-testid=score-offline]');
  await page.click('[data-testid=item-row] >> nth=0 >> [data-testid=item-toggle]');
  const win = page.locator('[data-testid=ranked-window]').first();
  const snippets = await win.locator('[data-testid=match-snippet]').evaluateAll((cells) =>
    cells.map((c) => ({ rank: c.dataset.rank, text: c.textContent, quoted: c.querySelector('q')?.textContent ?? null })));
  assert.deepEqual(snippets.map((s) => s.rank), ['1', '2', '3', '4', '5'], 'one per recorded rank, the top five');
  // The first 300 characters as sent (all the page keeps), whitespace folded; "…": cut there.
  const first = snippets[0].quoted;
  assert.equal(first, `${LONG.slice(0, 300).trim().split(/\s+/).join(' ')}…`);
  assert.match(snippets[0].text, /figure summary: A plot for item 0\.$/);
  assert.equal(snippets[1].quoted, '<img src=x onerror="window.__pwned=1">', 'markup is shown as text');
  assert.equal(await win.locator('img:not([data-thumb])').count(), 0, 'no element was made from a response');
  assert.equal(snippets[2].quoted, null);
  assert.match(snippets[2].text, /no content text/);
  assert.equal(snippets[3].quoted, 'four');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.match(await win.locator('p.small').first().textContent(), /^6 matches returned; the top 5 are recorded\./, 'no "(es)" plural');
  assert.equal(await win.locator('[data-testid=no-snippets]').count(), 0, 'a scored capture keeps what the matches said');
  // A figure summary the report keeps cut (its first 200 characters) ends with "…".
  await page.click('[data-testid=item-row] >> nth=1 >> [data-testid=item-toggle]');
  const summaries = await page.locator('[data-testid=ranked-window] >> nth=1 >> [data-testid=figure-summary]').allTextContents();
  assert.deepEqual(summaries, [`${LONG_SUMMARY.slice(0, 200)}…`]);

  // The same report saved and opened as a file: no responses, so no snippets.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-report]')]);
  const file = tmp.file('report.json', readFileSync(await download.path(), 'utf8'));
  await page.click('[data-testid=tab-workbench]');
  await page.setInputFiles('[data-testid=report-input]', file);
  const toggle = page.locator('[data-testid=item-row] >> nth=0 >> [data-testid=item-toggle]');
  // The list keeps open what was open (by question); open it when it is not.
  if (await toggle.getAttribute('aria-expanded') !== 'true') await toggle.click();
  await page.waitForSelector('[data-testid=ranked-window] [data-testid=window-row]');
  assert.equal(await page.locator('[data-testid=match-snippet]').count(), 0, 'a report file carries no content');
  assert.match(await page.locator('[data-testid=no-snippets]').first().textContent(),
    /not kept in a report: this one was opened from a file or a link, so the window shows chunk ids and cited pages only/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
