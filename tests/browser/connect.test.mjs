// The page speaks to any search API through a connector (contract §14.9), against the real
// LangServe and Hayhooks servers (BM25 retrievers over the Octave manual, from PyPI): the connector
// dialog's Try one question shows what `figeval probe` prints, a live run through either preset
// shows the numbers `figeval run --connector` prints, its capture scores to the same report with
// the CLI, a mapping that reads printed page labels reads them from the PDF open in the page, a
// deployment that does not answer the page gets a message naming the header it must send, and a
// header value typed into the page is written nowhere.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, missing, langServeMissing, appHarness, openApp, loadBundled, setField,
  readGroupTable, assertTableMatchesReport, figeval, figevalReport, startLangServe, startHayhooks, scratch,
  showView, linkReport, OCTAVE_PDF,
} from './support.mjs';

const skip = missing({ figeval: true }) || langServeMissing() || false;
const h = appHarness(skip);
let tmp;
let served; // LangServe answering the page's origin: a promise, started by the first test
const langServe = () => (served ??= startLangServe({ corsOrigin: new URL(h.site.url).origin }));
const QUESTION = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8')).items[0].question;

before(async () => {
  if (skip) return;
  tmp = scratch();
});
after(async () => {
  await (await served)?.stop();
  tmp?.remove();
});

/** Opens the app on the Octave dataset with `baseUrl`, and the connector dialog. */
async function openConnector(baseUrl) {
  const page = await openApp(h.browser, h.site.url, { acceptDownloads: true });
  await loadBundled(page, 'octave-manual-figures');
  await showView(page, 'workbench');
  await setField(page, 'base-url', baseUrl);
  await page.click('[data-testid=connect-open]');
  await page.waitForSelector('[data-testid=connect-dialog][open] [data-testid=connect-preset]');
  return page;
}

/** Puts the dialog's connector in use and closes the dialog. */
async function useIt(page) {
  await page.click('[data-testid=connect-use]');
  await page.waitForSelector('[data-testid=connect-note]');
  await page.click('[data-testid=connect-close]');
}

async function download(page, testid) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
  return readFileSync(await d.path(), 'utf8');
}

/**
 * Runs the dataset live in the page (a connector in use) and with `figeval run --connector
 * preset`, and checks the page shows and downloads the CLI's numbers. Returns both reports.
 */
async function runBesideCli(page, preset, baseUrl) {
  const cli = await figevalReport(['run', '--connector', preset, '--base-url', baseUrl, '--dataset', OCTAVE_DATASET]);
  await page.click('[data-testid=run-live]');
  const table = await readGroupTable(page);
  assertTableMatchesReport(assert, table, cli);
  const report = JSON.parse(await download(page, 'download-report'));
  assert.deepEqual(report.per_item, cli.per_item, 'the page\'s per-item records are the CLI\'s');
  assert.equal(report.hits_without_page, cli.hits_without_page);
  assert.equal(typeof report.hits_without_page, 'number', 'a connector run states hits_without_page');
  assert.equal(report.run.connector, preset, 'the report names its connector');
  assert.equal(cli.run.connector, preset);
  // The share link carries it with the report.
  const shared = linkReport(await page.locator('[data-testid=share-link]').inputValue());
  assert.equal(shared.run.connector, preset, 'the share link names the connector');
  return { cli, report };
}

test('a live run through the LangServe preset shows what figeval run --connector langserve prints', { skip, timeout: 600_000 }, async () => {
  const served = await langServe();
  const page = await openConnector(served.url);
  assert.equal(await page.locator('[data-testid=connect-preset]').inputValue(), 'langserve');
  assert.match(await page.locator('[data-testid=connect-check]').textContent(), /A valid connector: "langserve", pages at \/metadata\/page \(numbering "0"\)/);

  // Try one question: what the mapping read of each hit, as figeval probe prints it.
  await setField(page, 'connect-question', QUESTION);
  await page.click('[data-testid=connect-try]');
  const probe = await page.locator('[data-testid=connect-probe]').textContent();
  const cliProbe = await figeval(['probe', '--connector', 'langserve', '--base-url', served.url, QUESTION]);
  assert.equal(cliProbe.code, 0, cliProbe.stderr);
  assert.equal(probe, cliProbe.stdout, 'the page shows what figeval probe prints');
  assert.match(probe, /keys: .*metadata/);

  await useIt(page);
  const status = page.locator('[data-testid=connect-status]');
  // The URL a live run will ask, not the connector's template.
  const asks = await status.textContent();
  assert.match(asks, /Live runs ask through the connector "langserve": POST http:\/\/127\.0\.0\.1:\d+\/octave\/invoke\./);
  assert.ok(!asks.includes('{{'), asks);

  const { cli, report } = await runBesideCli(page, 'langserve', served.url);
  assert.ok(report.page_hit_at_3 > 0.5, `the retriever finds most pages (${report.page_hit_at_3}): the 0-based pages were read as such`);

  // The page's capture holds the answers as the mapping read them; the CLI scores it the same.
  const capture = tmp.file('langserve-page.jsonl', await download(page, 'download-report-capture'));
  const first = JSON.parse(readFileSync(capture, 'utf8').split('\n')[0]);
  assert.equal(first.response.read_through, 'langserve');
  const rescored = await figevalReport(['score', '--responses', capture, '--dataset', OCTAVE_DATASET]);
  assert.deepEqual(rescored.per_item, cli.per_item);
  assert.equal(rescored.hits_without_page, cli.hits_without_page);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a live run through the Hayhooks preset shows what figeval run --connector hayhooks prints', { skip, timeout: 600_000 }, async () => {
  const hay = await startHayhooks();
  try {
    const page = await openConnector(hay.url);
    await page.selectOption('[data-testid=connect-preset]', 'hayhooks');
    assert.match(await page.locator('[data-testid=connect-check]').textContent(), /"hayhooks", pages at \/meta\/page_number \(numbering "1"\)/);
    await useIt(page);
    await runBesideCli(page, 'hayhooks', hay.url);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await hay.stop();
  }
});

test('a mapping that reads printed page labels reads them from the PDF open in the page, as figeval run --pdf does', { skip, timeout: 600_000 }, async () => {
  const served = await langServe();
  const page = await openConnector(served.url);
  // LangServe's `page_label` is the printed page number ("316" on physical page 332).
  const mapping = JSON.parse(await page.locator('[data-testid=connect-mapping]').inputValue());
  mapping.name = 'langserve-labels';
  mapping.response.page_start = '/metadata/page_label';
  mapping.response.numbering = 'label';
  const text = JSON.stringify(mapping, null, 2);
  await setField(page, 'connect-mapping', text);
  // Without a PDF open there are no labels to read: refused, with the reason and the way out.
  await page.click('[data-testid=connect-use]');
  const refused = await page.locator('[data-testid=connect-note]').textContent();
  assert.match(refused, /reads printed page labels .*\(open it in the Document view/, refused);
  assert.ok(await page.locator('[data-testid=connect-status]').isHidden(), 'not in use');
  await page.click('[data-testid=connect-close]');

  await showView(page, 'document');
  await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
  await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
  await showView(page, 'workbench');
  await page.click('[data-testid=connect-open]');
  await page.waitForSelector('[data-testid=connect-dialog][open] [data-testid=connect-mapping]');
  await setField(page, 'connect-mapping', text);
  await useIt(page);
  assert.match(await page.locator('[data-testid=connect-status]').textContent(), /"langserve-labels"/);

  const file = tmp.file('langserve-labels.json', text);
  const cli = await figevalReport(['run', '--connector', file, '--pdf', OCTAVE_PDF, '--base-url', served.url, '--dataset', OCTAVE_DATASET]);
  const preset = await figevalReport(['run', '--connector', 'langserve', '--base-url', served.url, '--dataset', OCTAVE_DATASET]);
  await page.click('[data-testid=run-live]');
  assertTableMatchesReport(assert, await readGroupTable(page), cli);
  const report = JSON.parse(await download(page, 'download-report'));
  assert.deepEqual(report.per_item, cli.per_item, 'the page reads the labels as figeval run --pdf reads them');
  assert.equal(report.hits_without_page, cli.hits_without_page);
  // Every label of this PDF is a page's: the labels give the pages the 0-based numbers give.
  assert.equal(report.page_hit_at_3, preset.page_hit_at_3, 'labels mapped to physical pages');
  assert.ok(report.page_hit_at_3 > 0.5, `${report.page_hit_at_3}`);
  const stated = JSON.parse(report.run.connector);
  assert.equal(stated.name, 'langserve-labels');
  assert.equal(stated.response.numbering, 'label');
  assert.deepEqual(stated, JSON.parse(cli.run.connector), 'the page and the CLI record the same mapping');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a deployment that does not answer the page is named with the header it must send', { skip, timeout: 600_000 }, async () => {
  const closed = await startLangServe(); // no CORS: it answers, but not to this page
  try {
    const page = await openConnector(closed.url);
    const origin = new URL(h.site.url).origin;
    await setField(page, 'connect-question', QUESTION);
    await page.click('[data-testid=connect-try]');
    const tried = await page.locator('[data-testid=connect-error]').textContent();
    assert.match(tried, new RegExp(`is running, but does not answer this page \\(CORS\\): the deployment must send the header Access-Control-Allow-Origin: ${origin}`));
    await useIt(page);
    await page.click('[data-testid=run-live]');
    const banner = await page.locator('[data-testid=error-banner]').textContent();
    assert.ok(banner.includes(`${closed.url}/invoke is running, but does not answer this page (CORS)`), banner);
    assert.ok(banner.includes(`Access-Control-Allow-Origin: ${origin}`), banner);
    await page.context().close();
  } finally {
    await closed.stop();
  }
});

test('a header value typed into the page is sent, and written nowhere', { skip, timeout: 600_000 }, async () => {
  const TOKEN = 'tok-5d1e0c2b-never-written';
  const served = await langServe();
  const page = await openConnector(served.url);
  const mapping = JSON.parse(await page.locator('[data-testid=connect-mapping]').inputValue());
  mapping.name = 'guarded-langserve';
  mapping.request.headers = { Authorization: 'Bearer {{env.RETRIEVER_TOKEN}}' };
  await setField(page, 'connect-mapping', JSON.stringify(mapping, null, 2));
  // Not usable until its value is given.
  await page.click('[data-testid=connect-use]');
  assert.match(await page.locator('[data-testid=connect-note]').textContent(), /give the value of RETRIEVER_TOKEN/);
  const sent = [];
  page.on('request', (r) => { const a = r.headers().authorization; if (a) sent.push(a); });
  await page.fill('[data-testid=connect-secret][data-name=RETRIEVER_TOKEN]', TOKEN);
  await useIt(page);
  await page.click('[data-testid=run-live]');
  await readGroupTable(page);
  assert.ok(sent.length > 0 && sent.every((a) => a === `Bearer ${TOKEN}`), 'the header is sent');
  const written = [
    await download(page, 'download-report'),
    await download(page, 'download-report-capture'),
    await page.evaluate(() => JSON.stringify({ ...localStorage })),
    await page.evaluate(() => location.href),
    await page.locator('body').innerText(),
  ];
  for (const text of written) assert.ok(!text.includes(TOKEN), `the token is not in: ${text.slice(0, 200)}`);
  // The report names the mapping, its header without its value.
  const stated = JSON.parse(JSON.parse(written[0]).run.connector);
  assert.equal(stated.name, 'guarded-langserve');
  assert.deepEqual(stated.request.headers, { Authorization: '[redacted]' });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
