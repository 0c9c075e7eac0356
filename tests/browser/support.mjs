// Shared helpers of the browser tests: a static server for dist/, the reference deployment,
// a deliberately faulty deployment, Chromium, and the figeval CLI.
//
// The tests build nothing. They read:
//   FIGEVAL_DIST   the built app (default: <repo>/dist, from `trunk build --offline --release`)
//   FIGEVAL_BIN    the figeval CLI binary            (tests that need it are skipped without it)
//   REFSEARCH_BIN  the refsearch binary              (tests that need it are skipped without it)
//   CHROMIUM       the browser (default /usr/bin/chromium)
//   FIGEVAL_OCTAVE_PDF  the Octave manual (default /usr/share/doc/octave/octave.pdf; its SHA-256
//                  must be the one testkit::manual and `cargo xtask setup` check)
// Every process a test starts listens on 127.0.0.1 only and is stopped when the test ends.

import { spawn, execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { existsSync, readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = process.env.FIGEVAL_DIST || path.join(REPO, 'dist');
export const FIGEVAL_BIN = process.env.FIGEVAL_BIN || '';
export const REFSEARCH_BIN = process.env.REFSEARCH_BIN || '';
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const OCTAVE_PDF = process.env.FIGEVAL_OCTAVE_PDF || '/usr/share/doc/octave/octave.pdf';
/** The SHA-256 of the manual the tests are written for (crates/testkit/src/manual.rs). */
const OCTAVE_SHA256 = 'ddd24489f87b46fbf99c15cc34aa865ae66775fb7c21927f7f2d6be9470becb8';
export const OCTAVE_DATASET = path.join(REPO, 'data/eval_datasets/octave-manual-figures.json');
export const NASA_DATASET = path.join(REPO, 'data/eval_datasets/nasa-apollo-11-figures.json');
export const OCTAVE_NOTES = path.join(REPO, 'data/corpora/octave-manual/figure-notes.json');
export const METRICS = ['page_hit_at_3', 'precise_page_hit_at_3', 'figure_chunk_at_3', 'page_hit_at_5'];

let manualProblem;
/** Why the Octave manual cannot be used ('' when it is the one the tests are written for). */
export function manualMissing() {
  if (manualProblem !== undefined) return manualProblem;
  const how = 'install it with `cargo xtask setup` (Debian\'s octave-doc 7.3.0-2), or point FIGEVAL_OCTAVE_PDF at that PDF';
  if (!existsSync(OCTAVE_PDF)) {
    manualProblem = `no Octave manual at ${OCTAVE_PDF}: ${how}`;
  } else {
    const found = createHash('sha256').update(readFileSync(OCTAVE_PDF)).digest('hex');
    manualProblem = found === OCTAVE_SHA256 ? ''
      : `the Octave manual at ${OCTAVE_PDF} has SHA-256 ${found}, not ${OCTAVE_SHA256}: ${how}`;
  }
  return manualProblem;
}

/**
 * Why a test cannot run here, or '' when it can: the built app and the browser always, the
 * binaries and the Octave manual when asked (`refsearch` implies `manual`).
 */
export function missing({ figeval = false, refsearch = false, manual = false } = {}) {
  if (!existsSync(path.join(DIST, 'index.html'))) return `no built app at ${DIST} (set FIGEVAL_DIST)`;
  if (!existsSync(CHROMIUM)) return `no browser at ${CHROMIUM} (set CHROMIUM)`;
  if (figeval && !(FIGEVAL_BIN && existsSync(FIGEVAL_BIN))) return 'FIGEVAL_BIN is not set to the figeval binary';
  if (refsearch && !(REFSEARCH_BIN && existsSync(REFSEARCH_BIN))) return 'REFSEARCH_BIN is not set to the refsearch binary';
  if (refsearch || manual) return manualMissing();
  return '';
}

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm', '.css': 'text/css; charset=utf-8', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
};

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}

function close(server) {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

/** Serves `dir` on 127.0.0.1:0. Returns { url, stop }. */
export async function serveDist(dir = DIST) {
  const root = path.resolve(dir);
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let rel = decodeURIComponent(url.pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.resolve(root, '.' + rel);
    if (!file.startsWith(root + path.sep) || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
      res.end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] || 'application/octet-stream',
      'cache-control': 'no-store',
      'access-control-allow-origin': '*', // lets a page on another port fetch a dataset by URL
    });
    res.end(readFileSync(file));
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/`, stop: () => close(server) };
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type',
};

/**
 * A deployment that answers POST /api/search with `reply(n, body)` (n counts searches from 1):
 * { status, body } (or a promise of it, to hold a search back) where body is a string or an
 * object sent as JSON. Returns { url, asked, stop }.
 */
export async function fakeDeployment(reply) {
  const asked = [];
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    if (req.method === 'GET') { // the page's health check: this deployment does not say what it serves
      res.writeHead(404, { ...CORS, 'content-type': 'application/json' });
      res.end('{"detail":"Not Found"}');
      return;
    }
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', async () => {
      let body = {};
      try { body = JSON.parse(raw); } catch { /* an unreadable body is recorded as {} */ }
      asked.push(body);
      const r = await reply(asked.length, body);
      const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
      res.writeHead(r.status ?? 200, { ...CORS, 'content-type': r.contentType || 'application/json' });
      res.end(text);
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/api`, asked, stop: () => close(server) };
}

/** A valid search body citing `pages` ([start, end] pairs) for `query`. */
export function searchBody(query, pages, kind = 'text') {
  return {
    query,
    latency_ms: 1.5,
    matches: pages.map(([s, e], i) => ({
      chunk_id: `c${i + 1}`,
      content: 'text',
      score: 10 - i,
      metadata: { chunk_kind: kind, ...(kind === 'figure' ? { figure: { kind: 'plot', summary: `summary of ${query}` } } : {}) },
      provenance: { extraction: 'pdftotext', page_start: s, page_end: e, regions: [] },
    })),
  };
}

/**
 * A capture of `dataset` as JSON Lines of bodies: each item hits at rank 1 except those whose
 * index is a multiple of `every`, which cite a page 40 past their own (text and figure matches
 * alternate).
 */
export function missEvery(dataset, every) {
  return dataset.items.map((item, i) => {
    const p = item.expected_pages[0];
    const pages = i % every === 0 ? [[p + 40, p + 40]] : [[p, p]];
    return JSON.stringify(searchBody(item.question, pages, i % 2 ? 'figure' : 'text'));
  }).join('\n');
}

/**
 * A varied, deterministic set of search bodies for `dataset`'s items: top-1 figure hits,
 * rank-4 hits, wide blobs, misses, and matches with broken provenance. `shift` rotates which
 * item gets which, so two calls with different shifts make a before and an after.
 */
export function variedBodies(dataset, shift = 0) {
  return dataset.items.map((item, i) => {
    const p = item.expected_pages[0];
    const far = p + 40;
    switch ((i + shift) % 5) {
      case 0: return searchBody(item.question, [[p, p], [far, far]], 'figure');
      case 1: return searchBody(item.question, [[far, far], [far + 1, far + 1], [far + 2, far + 2], [p, p], [far + 3, far + 3]]);
      case 2: return searchBody(item.question, [[far, far], [p - 5, p + 6]]);
      case 3: return searchBody(item.question, [[far, far], [far, far + 1]]);
      default: return { ...searchBody(item.question, [[p - 1, p]]), matches: [
        { chunk_id: 7, provenance: { page_start: p, page_end: 'x' } },
        { chunk_id: 8, provenance: { page_start: p - 1, page_end: p + 1 }, metadata: { chunk_kind: 'figure' } }] };
    }
  });
}

/** How to stop a started server: SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
function stopper(child, graceMs) {
  return () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => { if (child.exitCode === null) child.kill('SIGKILL'); }, graceMs).unref();
  });
}

/**
 * Starts refsearch over the Octave manual on 127.0.0.1:0, figures on unless `figures: 'off'`
 * (the notes are given either way). Returns { url, stop }.
 */
export function startRefsearch(extra = [], { figures = 'on' } = {}) {
  return startRefsearchWith(['--pdf', OCTAVE_PDF, '--corpus-id', 'octave-manual', '--listen', '127.0.0.1:0',
    '--figures', figures, '--figure-notes', OCTAVE_NOTES, ...extra]);
}

/** Starts refsearch with `args` as they are (they must listen on 127.0.0.1:0). Returns { url, stop }. */
export function startRefsearchWith(args) {
  const child = spawn(REFSEARCH_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const stop = stopper(child, 3000);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`refsearch did not start within 180 s:\n${log}`)); }, 180_000);
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const m = /listening on (http:\/\/\S+\/api)/.exec(log);
      if (m) { clearTimeout(timer); resolve({ url: m[1], stop, log: () => log }); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`refsearch exited (${code}):\n${log}`)); });
  });
}

/**
 * The report of `figeval run` over the Octave dataset against a refsearch started for it
 * (`refsearch` extra arguments and `figures`, as startRefsearch takes them) and stopped after;
 * `run` adds arguments to figeval's. Resolves the report.
 */
export async function refsearchReport({ refsearch = [], figures = 'on', run = [] } = {}) {
  const dep = await startRefsearch(refsearch, { figures });
  try {
    return await figevalReport(['run', '--base-url', dep.url, '--dataset', OCTAVE_DATASET, ...run]);
  } finally {
    await dep.stop();
  }
}

/**
 * Starts `figeval serve` with the built app on 127.0.0.1:0 and a SQLite store in a scratch
 * folder (`extra` adds arguments, `env` variables), and reads its `listening on` line. Returns
 * { url (ending in /), stop, log, store, dir }. Open on loopback with no token: every request
 * is admin.
 */
export function startServe(extra = [], { env = {}, store = null } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'figeval-serve-'));
  const db = store ?? `sqlite:${path.join(dir, 'runs.db')}`;
  const child = spawn(FIGEVAL_BIN, ['serve', '--listen', '127.0.0.1:0', '--store', db, '--app', DIST, ...extra],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let log = '';
  const stopChild = stopper(child, 5000);
  const stop = async () => { await stopChild(); rmSync(dir, { recursive: true, force: true }); };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`figeval serve did not start within 60 s:\n${log}`)); }, 60_000);
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const m = /figeval serve: listening on (http:\/\/\S+)/.exec(log);
      if (m) { clearTimeout(timer); resolve({ url: `${m[1]}/`, stop, log: () => log, store: db, dir }); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`figeval serve exited (${code}):\n${log}`)); });
  });
}

/**
 * Pushes a run to a figeval server (`POST api/runs`): `body` is `{report, name?, labels?}`;
 * `token` a bearer token. Resolves the answer's JSON (`{id, url, …}`), or throws with the
 * server's words.
 */
export async function pushRun(server, body, token = null) {
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const r = await fetch(`${server}api/runs`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await r.text();
  if (r.status !== 201) throw new Error(`push answered ${r.status}: ${text}`);
  return JSON.parse(text);
}

/** Runs the figeval CLI; resolves { code, stdout, stderr }. */
export function figeval(args) {
  return new Promise((resolve) => {
    execFile(FIGEVAL_BIN, args, { maxBuffer: 256 << 20, cwd: REPO }, (err, stdout, stderr) => {
      resolve({ code: err ? (err.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The report `figeval` printed, or a thrown error with its stderr. */
export async function figevalReport(args) {
  const r = await figeval(args);
  if (r.code !== 0) throw new Error(`figeval ${args.join(' ')} exited ${r.code}:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A scratch directory, removed by the returned function. */
export function scratch() {
  const dir = mkdtempSync(path.join(tmpdir(), 'figeval-browser-'));
  return { dir, file: (name, text) => { const p = path.join(dir, name); writeFileSync(p, text); return p; },
    remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Launches Chromium headless with a fresh profile. */
export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic', '--disable-dev-shm-usage'],
  });
}

/**
 * Serves dist/ and launches Chromium before the file's tests (unless `skip`), and stops both
 * after them. Returns an object whose `site` and `browser` are set once they run.
 */
export function appHarness(skip) {
  const h = {};
  before(async () => {
    if (skip) return;
    h.site = await serveDist();
    h.browser = await launch();
  });
  after(async () => {
    await h.browser?.close();
    await h.site?.stop();
  });
  return h;
}

/**
 * The demo's pair of Octave reports, figures off and on (refsearch, then `figeval run --out
 * --name "figures off|on"`), written before the file's tests and removed after them. Returns
 * { off, on, dir }: their paths and folder, set once written.
 */
export function figuresReports(skip) {
  const r = {};
  let tmp;
  before(async () => {
    if (skip) return;
    tmp = scratch();
    r.dir = tmp.dir;
    await Promise.all(['off', 'on'].map(async (figures) => {
      r[figures] = `${tmp.dir}/octave-figures-${figures}.json`;
      await refsearchReport({ figures, run: ['--out', r[figures], '--name', `figures ${figures}`] });
    }));
  });
  after(() => tmp?.remove());
  return r;
}

/**
 * Collects the page's console errors and page errors into `page.problems`. The page asks the
 * deployment what it serves (`GET …/health`), and the Runs view whether a figeval server serves
 * it (`GET api/session`); the browser logs those requests failing when nothing answers them
 * (no deployment, a static host), which is no fault of the page, so they are left out.
 */
export function watchProblems(page) {
  page.problems = [];
  page.on('console', (m) => {
    const url = m.location()?.url ?? '';
    if (m.type() === 'error' && !url.endsWith('/health') && !url.endsWith('/api/session')) page.problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
}

/**
 * Opens the app and waits for it to render. Collects console errors, page errors and CSP
 * violations into `page.problems`. `settings` seeds the remembered deployment settings.
 */
export async function openApp(browser, url, { acceptDownloads = false, permissions = [], settings = null } = {}) {
  const context = await browser.newContext({ acceptDownloads, permissions, viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  // Settings as a returning user has them (localStorage), e.g. { base_url }.
  if (settings) await page.addInitScript((s) => localStorage.setItem('figeval.settings.v1', s), JSON.stringify(settings));
  watchProblems(page);
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window.__cspViolations ||= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto(url);
  await page.waitForSelector('[data-testid=tab-report]', { state: 'attached', timeout: 30_000 });
  // On the workbench (a page opened without a share link), its module too (web/work).
  if (await page.getAttribute('[data-testid=tab-workbench]', 'aria-current') === 'page') await workbenchLoaded(page);
  return page;
}

/** Waits until the workbench module (web/work) has rendered into the workbench's view. */
export async function workbenchLoaded(page) {
  await page.waitForSelector('[data-testid=dataset-input]', { state: 'attached', timeout: 30_000 });
}

/** Drops a file (name, text) onto the element matching `selector`, as a drag and drop would. */
export async function dropFile(page, selector, name, text) {
  const transfer = await page.evaluateHandle(([n, t]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], n, { type: 'application/json' }));
    return dt;
  }, [name, text]);
  await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
}

/** Loads a bundled dataset by id (`octave-manual-figures`, `nasa-apollo-11-figures`). */
/**
 * Shows a view by its navigation button, unless it is on show: `workbench` (waiting for its
 * module), `report`, `compare`, or `document` (the document tools: the PDF, its check, captions
 * and editor).
 */
export async function showView(page, name) {
  const tab = `[data-testid=tab-${name}]`;
  if (await page.getAttribute(tab, 'aria-current') !== 'page') await page.click(tab);
  await page.waitForSelector(`${tab}[aria-current=page]`);
  // The workbench is its own module, loaded when its view is first shown.
  if (name === 'workbench') await workbenchLoaded(page);
}

/** Shows the document tools (the Document view). */
export const showDocument = (page) => showView(page, 'document');

export async function loadBundled(page, id) {
  await showView(page, 'workbench');
  await page.click(`[data-testid=load-bundled][data-dataset="${id}"]`);
  // All but the first are fetched: wait until it is the dataset on show.
  await page.waitForSelector(`[data-testid=load-bundled][data-dataset="${id}"].active`);
  await page.waitForSelector('[data-testid=dataset-status]');
}

/**
 * Replaces a field's value. Text areas get the whole text in one input event, as a paste does
 * (Playwright's fill types a multi-line text as one input event per line, which is slow).
 */
export async function setField(page, testid, value) {
  const selector = `[data-testid=${testid}]`;
  if (await page.$eval(selector, (el) => el.tagName === 'TEXTAREA')) {
    await page.$eval(selector, (el, v) => {
      el.focus();
      el.value = v;
      el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    }, String(value));
  } else {
    await page.fill(selector, String(value));
  }
}

/** The group table as { group: { metric: { text, hits, n, ci } } } (`ci`: `data-ci`, or null). */
export async function readGroupTable(page) {
  await page.waitForSelector('[data-testid=group-table]', { state: 'visible', timeout: 120_000 });
  return page.$$eval('[data-testid=group-table] tbody tr', (rows) => Object.fromEntries(rows.map((r) => [
    r.dataset.group,
    Object.fromEntries([...r.querySelectorAll('td[data-metric]')].map((td) => [td.dataset.metric, {
      text: td.textContent.trim(), hits: td.dataset.hits, n: td.dataset.n, ci: td.dataset.ci ?? null,
    }])),
  ])));
}

/**
 * `x` to `places` decimals as Rust's `{:.N}` prints it: the exact binary value rounded, an exact
 * tie to even, where `toFixed` takes a tie up (0.125 to 2 places: "0.12" there, "0.13" here).
 */
export function fixed(x, places) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? '-' : '';
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  // |x| = mant · 2^e exactly.
  const [mant, e] = exp === 0 ? [frac, -1074] : [frac | (1n << 52n), exp - 1075];
  let num = mant * 10n ** BigInt(places);
  let den = 1n;
  if (e >= 0) num <<= BigInt(e); else den <<= BigInt(-e);
  let q = num / den;
  const twice = 2n * (num - q * den);
  if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
  const digits = q.toString().padStart(places + 1, '0');
  return sign + (places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits);
}

/** A bound as the text report prints it, two decimals (see `fixed`). */
export const fixed2 = (x) => fixed(x, 2);

/** An interval `[lo, hi]` as the text report prints it: `0.80–0.98`. */
export const intervalText = ([lo, hi]) => `${fixed2(lo)}–${fixed2(hi)}`;

/** An interval `[lo, hi]` as a `data-ci` attribute carries it: `0.8039,0.9832`. */
export const intervalData = (ci) => ci.map((x) => x.toFixed(4)).join(',');

/** What follows a rate (`render::hits_with_ci`): `(31/33; 95% CI 0.80–0.98)`, or `(0/0)`. */
export const hitsText = (hits, n, ci) => `(${hits}/${n}${ci ? `; 95% CI ${intervalText(ci)}` : ''})`;

/** A rate as every rendering shows it (`render::rate_with_ci`): `0.9394 (31/33; 95% CI 0.80–0.98)`. */
export const rateText = (rate, hits, n, ci) => `${fixed(rate, 4)} ${hitsText(hits, n, ci)}`;

/** A change with its sign (`render::signed`): `+0.1515`, `-0.0312`, `0.0000`. */
export const signed = (x, places = 4) => (x > 0 ? `+${fixed(x, places)}` : fixed(x === 0 ? 0 : x, places));

/** A change's interval (`render::delta_interval`): `-0.51 to -0.03`, or `n/a` without one. */
export const deltaIntervalText = (ci) => (ci ? `${signed(ci[0], 2)} to ${signed(ci[1], 2)}` : 'n/a');

/**
 * Asserts that the page's table shows exactly the report's numbers, group by group: each rate
 * as the text report prints it, `0.9394 (31/33; 95% CI 0.80–0.98)`, its `data-ci` the report's
 * `<metric>_ci`, and MRR with its bootstrap interval (`page_mrr_ci`: from the CLI natively, from
 * the page in wasm; they must be the same numbers).
 */
export function assertTableMatchesReport(assert, table, report) {
  const scopes = { ...report.by_group, overall: report };
  assert.deepEqual(Object.keys(table).sort(), Object.keys(scopes).sort(), 'the same groups');
  for (const [scope, summary] of Object.entries(scopes)) {
    for (const m of METRICS) {
      const cell = table[scope][m];
      const ci = summary[`${m}_ci`];
      // Testing convention: the cell's text starts with the rate, then (hits/n; 95% CI lo–hi).
      assert.equal(cell.text, rateText(summary[m], summary[`${m}_hits`], summary.n, ci), `${scope} ${m}`);
      assert.equal(cell.ci, ci ? intervalData(ci) : null, `${scope} ${m}_ci`);
      assert.equal(Number(cell.hits), summary[`${m}_hits`], `${scope} ${m} hits`);
    }
    const mrr = summary.page_mrr_ci;
    const expected = mrr ? `${summary.page_mrr.toFixed(4)} (95% CI ${intervalText(mrr)})` : summary.page_mrr.toFixed(4);
    assert.equal(table[scope].page_mrr.text, expected, `${scope} page_mrr`);
    assert.equal(table[scope].page_mrr.ci, mrr ? intervalData(mrr) : null, `${scope} page_mrr_ci`);
    assert.equal(Number(table[scope].n.text), summary.n, `${scope} n`);
  }
}

/**
 * The axe-core violations of the page as it is now, as `[{ id, impact, help, nodes: [target,
 * summary] }]` (empty when there is none). Every rule axe enables by default runs (WCAG 2.0,
 * 2.1 A and AA, and best practices).
 *
 * The page's CSP allows no inline script, so `page.addScriptTag({ content })` would be refused.
 * axe's source is evaluated with `page.evaluate` instead: Playwright runs it through the
 * DevTools protocol, which the page's CSP does not govern, and the page's own policy stays
 * untouched (no `bypassCSP`). axe-core is a test dependency: it never reaches dist/.
 */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(source);
  }
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => [n.target.join(' '), n.failureSummary]),
    }));
  });
}

/** `{ rule: count }` of `violations`, for a short message. */
export function countByRule(violations) {
  return Object.fromEntries(violations.map((v) => [`${v.id} (${v.impact})`, v.nodes.length]));
}

/**
 * Every mark of every SVG chart on show against its track (WCAG 1.4.11 asks 3:1 for the parts
 * of a graphic needed to read it): `[{ chart, mark, ratio }]`. A chart is an `svg` with a
 * `.track` element; its marks are its other shapes (`rect`, `line`, `path`, `circle`,
 * `polyline`), coloured by their fill or, when they have none, their stroke.
 */
export async function markContrasts(page) {
  return page.evaluate(() => {
    const rgb = (c) => (/rgba?\(([^)]+)\)/.exec(c)?.[1].split(',').map(Number)) || null;
    const lum = ([r, g, b]) => {
      const f = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const paint = (el) => {
      const s = getComputedStyle(el);
      const fill = rgb(s.fill);
      if (s.fill !== 'none' && fill && fill[3] !== 0) return fill;
      return s.stroke !== 'none' ? rgb(s.stroke) : null;
    };
    const out = [];
    for (const svg of document.querySelectorAll('svg')) {
      if (!svg.checkVisibility()) continue;
      const track = svg.querySelector('.track');
      if (!track) continue;
      const base = paint(track);
      for (const mark of svg.querySelectorAll('rect, line, path, circle, polyline')) {
        // A halo is the gap between a mark and what lies under it, not a mark.
        if (mark.classList.contains('track') || mark.classList.contains('halo') || !mark.checkVisibility()) continue;
        const c = paint(mark);
        if (!c) continue;
        out.push({ chart: svg.getAttribute('class') || svg.closest('[data-testid]')?.dataset.testid || 'svg',
          mark: mark.getAttribute('class') || mark.tagName, ratio: Math.round(ratio(c, base) * 100) / 100 });
      }
    }
    return out;
  });
}

/** The LangServe and Hayhooks venv's python (`cargo xtask servers`), or '' when not made. */
export const SERVERS_PYTHON = process.env.FIGEVAL_SERVERS_PYTHON || '';
const SERVERS_PAGES = process.env.FIGEVAL_SERVERS_PAGES || '';

/** Why the real LangServe server cannot run here ('' when it can). */
export function langServeMissing() {
  if (!SERVERS_PYTHON || !existsSync(SERVERS_PYTHON)) {
    return 'FIGEVAL_SERVERS_PYTHON is not set: run `cargo xtask servers` and export what it prints';
  }
  if (!SERVERS_PAGES || !existsSync(SERVERS_PAGES)) return 'FIGEVAL_SERVERS_PAGES is not set';
  return '';
}

/**
 * Starts the real LangServe server (tests/servers/langserve_server.py: LangChain's BM25 retriever
 * over the Octave manual) on 127.0.0.1:0. With `corsOrigin`, it answers that page origin.
 * Returns { url, stop } (`url` is the route's, `http://127.0.0.1:PORT/octave`).
 */
export function startLangServe({ corsOrigin = null } = {}) {
  const args = ['langserve_server.py', '--pdf', OCTAVE_PDF, '--cache', SERVERS_PAGES, '--port', '0'];
  if (corsOrigin) args.push('--cors-origin', corsOrigin);
  const child = spawn(SERVERS_PYTHON, args, {
    cwd: path.join(REPO, 'tests/servers'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONWARNINGS: 'ignore::DeprecationWarning' },
  });
  let log = '';
  const stop = stopper(child, 5000);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`LangServe did not start within 300 s:\n${log}`)); }, 300_000);
    const read = (chunk) => {
      log += chunk;
      const m = /listening on (http:\/\/\S+\/octave)/.exec(log);
      if (m) { clearTimeout(timer); resolve({ url: m[1], stop }); }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`LangServe exited (${code}):\n${log}`)); });
  });
}

/** A free TCP port on 127.0.0.1 (Hayhooks takes 0 for its default port, so one is picked here). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createTcpServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

/**
 * Starts the real Hayhooks server (tests/servers/hayhooks: Haystack's InMemoryBM25Retriever over
 * the Octave manual, a pipeline named `octave`) on a free port of 127.0.0.1. Hayhooks answers
 * every origin by default (its CORS settings allow `*`). Returns { url, stop } (`url`:
 * `http://127.0.0.1:PORT/octave`).
 */
export async function startHayhooks() {
  const port = await freePort();
  const child = spawn(path.join(path.dirname(SERVERS_PYTHON), 'hayhooks'),
    ['run', '--host', '127.0.0.1', '--port', String(port), '--pipelines-dir', 'hayhooks', '--additional-python-path', '.'], {
      cwd: path.join(REPO, 'tests/servers'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONWARNINGS: 'ignore::DeprecationWarning',
        HAYSTACK_TELEMETRY_ENABLED: 'False', NO_COLOR: '1', FIGEVAL_SERVER_PDF: OCTAVE_PDF, FIGEVAL_SERVER_PAGES: SERVERS_PAGES,
      },
    });
  let log = '';
  const stop = stopper(child, 5000);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`Hayhooks did not start within 300 s:\n${log}`)); }, 300_000);
    const read = (chunk) => {
      log += chunk;
      if (log.includes('Uvicorn running on ')) { clearTimeout(timer); resolve({ url: `http://127.0.0.1:${port}/octave`, stop }); }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`Hayhooks exited (${code}):\n${log}`)); });
  });
}

/** The report a `#report=` share link holds (contract §10.2: raw DEFLATE, base64url). */
export const linkReport = (link) => JSON.parse(inflateRawSync(Buffer.from(link.split('#report=')[1], 'base64url')).toString());
