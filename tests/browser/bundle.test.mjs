// What a shared report fetches before it is shown (issue 35): a `#report=` link loads the main
// bundle — boot.js, the app's glue and its WebAssembly — and nothing else that is a script or
// WebAssembly, before its first group table. That set is what `cargo xtask bundle` budgets (the
// `.wasm` and `.js` at the top of dist/), so the budget's files are measured here, not assumed.
// The workbench (web/work) loads when it is opened, and the report it scores shows as before;
// the runs module (web/runs) when the Compare view is shown, which a `#compare=` link opens on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync, deflateRawSync, inflateRawSync } from 'node:zlib';
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

/** A report scored in the page, shared as a link: { link, table } (its group table's text). */
async function scoredLink() {
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
  return { link, table };
}

/** A fresh page of its own context, watched for problems, and the code it fetches. */
async function freshPage() {
  const context = await h.browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  watchProblems(page);
  return { context, page, fetched: code(page, h.site.url) };
}

test('a #report= link fetches only the main bundle before its first group table, and the workbench when it is opened', { skip }, async () => {
  const { link, table } = await scoredLink();

  // A fresh page on the link: what it fetched by the time the group table is there.
  const { context, page: linked, fetched } = await freshPage();
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

test('a #compare= link fetches the main bundle and the runs module, nothing else; a report link loads the runs module when Compare is opened', { skip }, async () => {
  const { link } = await scoredLink();
  const report = JSON.parse(inflateRawSync(Buffer.from(link.split('#report=')[1], 'base64url')));
  const pack = (value) => deflateRawSync(Buffer.from(JSON.stringify(value))).toString('base64url');
  const runsModule = ['runs/figeval-runs.js', 'runs/figeval-runs_bg.wasm'];

  // A comparison's link: the main bundle, then the runs module, which draws it.
  const { context, page: compared, fetched } = await freshPage();
  await compared.goto(`${h.site.url}#compare=${pack({ reports: [{ name: 'a', report }, { name: 'b', report }] })}`);
  await compared.waitForSelector('[data-testid=comparison]', { timeout: 30_000 });
  assert.deepEqual([...new Set(fetched)].sort(), ['boot.js', 'figeval-web.js', 'figeval-web_bg.wasm', ...runsModule].sort());
  assert.deepEqual(compared.problems, []);
  await context.close();

  // A report's link loads the runs module only when the Compare view is opened, and once.
  const { context: again, page: linked, fetched: seen } = await freshPage();
  await linked.goto(link);
  await linked.waitForSelector('[data-testid=group-table]', { timeout: 30_000 });
  await linked.waitForTimeout(300);
  const before = seen.length;
  assert.ok(!seen.some((f) => f.startsWith('runs/')), 'no runs module for a report');
  await showView(linked, 'compare');
  await linked.waitForSelector('[data-testid=compare-before-current]');
  assert.deepEqual(seen.slice(before), runsModule);
  await showView(linked, 'report');
  await linked.click('[data-testid=compare-as-after]');
  await linked.waitForSelector('[data-testid=compare-after-name]');
  assert.equal(seen.length, before + 2, 'the runs module is fetched once');
  assert.deepEqual(linked.problems, []);
  await again.close();
});
