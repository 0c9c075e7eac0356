// What a shared report fetches before it is shown (issue 35): a `#report=` link loads the main
// bundle — boot.js, the app's glue and its WebAssembly — and nothing else that is a script or
// WebAssembly, before its first group table. That set is what `cargo xtask bundle` budgets (the
// `.wasm` and `.js` at the top of dist/), so the budget's files are measured here, not assumed.
// The workbench (web/work) loads when it is opened, and the report it scores shows as before.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import {
  DIST, OCTAVE_DATASET, missing, appHarness, openApp, showView, setField, missEvery, watchProblems,
} from './support.mjs';

const skip = missing() || false;
const h = appHarness(skip);
const dataset = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));

/** The scripts and WebAssembly a page fetched, as paths under the site, in order. */
function code(page, site) {
  const fetched = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (/\.(wasm|js|mjs)$/.test(url.pathname)) fetched.push(url.pathname.slice(new URL(site).pathname.length));
  });
  return fetched;
}

test('a #report= link fetches only the main bundle before its first group table, and the workbench when it is opened', { skip }, async () => {
  // A report scored in the page, shared as a link.
  const page = await openApp(h.browser, h.site.url);
  await showView(page, 'workbench');
  await page.click('[data-testid=load-bundled][data-dataset="octave-manual-figures"]');
  await page.waitForSelector('[data-testid=load-bundled][data-dataset="octave-manual-figures"].active');
  await setField(page, 'responses-input', missEvery(dataset, 3));
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=group-table]');
  const link = await page.locator('[data-testid=share-link]').inputValue();
  const table = await page.locator('[data-testid=group-table]').innerText();
  await page.context().close();

  // A fresh page on the link: what it fetched by the time the group table is there.
  const context = await h.browser.newContext({ viewport: { width: 1360, height: 900 } });
  const linked = await context.newPage();
  watchProblems(linked);
  const fetched = code(linked, h.site.url);
  await linked.goto(link);
  await linked.waitForSelector('[data-testid=group-table]', { timeout: 30_000 });
  const before = [...fetched];
  assert.equal(await linked.locator('[data-testid=group-table]').innerText(), table, 'the same report');
  const budgeted = readdirSync(DIST).filter((n) => /\.(wasm|js)$/.test(n)).sort();
  assert.deepEqual([...new Set(before)].sort(), budgeted,
    'the link fetched exactly the files cargo xtask bundle counts in the main bundle');
  assert.deepEqual(budgeted, ['boot.js', 'figeval-web.js', 'figeval-web_bg.wasm']);
  const bytes = budgeted.reduce((n, f) => n + gzipSync(readFileSync(path.join(DIST, f)), { level: 9 }).length, 0);
  assert.ok(bytes <= 220_000, `the main bundle is ${bytes} B gzip -9, over 220,000 B`);
  // Nothing else came afterwards while the report was on show.
  await linked.waitForTimeout(500);
  assert.deepEqual(fetched, before, 'the report view loads no module of its own accord');
  assert.equal(await linked.locator('[data-testid=work-app] *, #work-app *').count(), 0, 'no workbench rendered');

  // Opening the workbench loads its module, once.
  await showView(linked, 'workbench');
  const work = fetched.slice(before.length);
  assert.deepEqual(work, ['work/figeval-work.js', 'work/figeval-work_bg.wasm']);
  await showView(linked, 'report');
  await showView(linked, 'workbench');
  assert.equal(fetched.length, before.length + 2, 'the workbench is fetched once');
  assert.deepEqual(linked.problems, []);
  await context.close();
});
