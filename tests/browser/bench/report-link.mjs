// A `#report=` link's time to its first group table on a slow network (issue 35): Chromium's
// DevTools emulation at 1.6 Mbit/s down and up with 150 ms of latency, the cache off, against
// the build before the workbench left the main bundle (commit BASE, built from a temporary git
// worktree under target/) in the same run. Both builds are served gzip-compressed (gzip -9,
// `content-encoding: gzip`), as a static host serves them, so the throttled figure measures
// the bytes a user downloads. The runs take turns (base, new, base, …).
//
// Environment: FIGEVAL_DIST (the new build, default dist/), BENCH_RUNS (default 5),
// BENCH_BASE (default 8f4c123), BENCH_BASE_DIST (a built baseline: skips the worktree build),
// CHROMIUM. Builds the baseline with trunk (web/README.md's tools on PATH) unless it is already
// under target/bench-report-link/. Prints the figures and PASS/FAIL: the new build reaches its
// first group table sooner than the baseline.

import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  DIST, REPO, OCTAVE_DATASET, launch, openApp, showView, setField, missEvery, watchProblems,
} from '../support.mjs';
import { cannotRun, machine, ms, list, verdict, noteFirstTable } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const BASE = process.env.BENCH_BASE || '8f4c123';
const NETWORK = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 1.6e6 / 8 };

/** The baseline's dist/, built once from a temporary worktree of BASE under target/. */
function baselineDist() {
  if (process.env.BENCH_BASE_DIST) return process.env.BENCH_BASE_DIST;
  const home = path.join(REPO, 'target', 'bench-report-link');
  const commit = execFileSync('git', ['-C', REPO, 'rev-parse', `${BASE}^{commit}`], { encoding: 'utf8' }).trim();
  const dist = path.join(home, `dist-${commit.slice(0, 12)}`);
  if (existsSync(path.join(dist, 'index.html'))) return dist;
  const tree = path.join(home, 'src');
  mkdirSync(home, { recursive: true });
  rmSync(tree, { recursive: true, force: true });
  execFileSync('git', ['-C', REPO, 'worktree', 'prune']);
  execFileSync('git', ['-C', REPO, 'worktree', 'add', '--detach', tree, commit], { stdio: 'inherit' });
  try {
    // The npm files index.html copies (pdf.js, tesseract.js): this checkout's, by link.
    symlinkSync(path.join(REPO, 'web', 'node_modules'), path.join(tree, 'web', 'node_modules'));
    console.error(`building ${BASE} into ${dist} (trunk build --release --offline; several minutes)…`);
    execFileSync('trunk', ['build', '--release', '--offline', '--dist', dist], {
      cwd: tree, stdio: 'inherit', env: { ...process.env, CARGO_TARGET_DIR: path.join(REPO, 'target') },
    });
  } finally {
    execFileSync('git', ['-C', REPO, 'worktree', 'remove', '--force', tree]);
  }
  return dist;
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml',
};

/** Serves `dir` on 127.0.0.1:0 as a static host would: every file gzip -9 compressed. */
async function serveGzipped(dir) {
  const root = path.resolve(dir);
  const cache = new Map();
  const server = createServer((req, res) => {
    let rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.resolve(root, '.' + rel);
    if (!file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    if (!cache.has(file)) cache.set(file, gzipSync(readFileSync(file), { level: 9 }));
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
      'content-encoding': 'gzip',
      'cache-control': 'no-store',
    });
    res.end(cache.get(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, stop: () => new Promise((r) => server.close(r)) };
}

/** A share link of a report scored in the new build's page (the Octave dataset, every third item a miss). */
async function makeFragment(browser, site) {
  const page = await openApp(browser, site.url);
  await showView(page, 'workbench');
  await page.click('[data-testid=load-bundled][data-dataset="octave-manual-figures"]');
  await page.waitForSelector('[data-testid=load-bundled][data-dataset="octave-manual-figures"].active');
  await setField(page, 'responses-input', missEvery(JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8')), 3));
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=group-table]');
  const link = await page.locator('[data-testid=share-link]').inputValue();
  await page.context().close();
  return link.slice(link.indexOf('#'));
}

/** One throttled visit: ms from navigation to the first group table, and the bytes received. */
async function visit(browser, site, fragment) {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  watchProblems(page);
  const tableAt = await noteFirstTable(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  let bytes = 0;
  const code = [];
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  cdp.on('Network.responseReceived', (e) => { if (/\.(wasm|js)$/.test(new URL(e.response.url).pathname)) code.push(path.basename(e.response.url)); });
  await page.goto(site.url + fragment);
  const at = await tableAt();
  if (page.problems.length) throw new Error(`the page reported: ${page.problems.join('; ')}`);
  await context.close();
  return { ms: at, bytes, code };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!existsSync(path.join(DIST, 'index.html'))) cannotRun(`no built app at ${DIST} (trunk build --offline --release)`);
  const baseDist = baselineDist();
  const browser = await launch();
  const plain = await import('../support.mjs').then((s) => s.serveDist(DIST));
  const sites = { base: await serveGzipped(baseDist), new: await serveGzipped(DIST) };
  try {
    const fragment = await makeFragment(browser, plain);
    const runs = { base: [], new: [] };
    for (let i = 0; i < RUNS; i++) {
      for (const side of ['base', 'new']) runs[side].push(await visit(browser, sites[side], fragment));
    }
    console.log(`report-link: a #report= link (${fragment.length.toLocaleString('en-US')} characters) to its first group table,`);
    console.log(`  throttled to 1.6 Mbit/s and 150 ms (DevTools), gzip -9 served, cache off, ${RUNS} runs each, ${machine()}`);
    const row = (side, label) => {
      const t = runs[side].map((r) => r.ms);
      console.log(`  ${label}: median ${ms(median(t))} (runs ${list(t)}), ${runs[side][0].bytes.toLocaleString('en-US')} B received, code: ${[...new Set(runs[side][0].code)].join(', ')}`);
      return median(t);
    };
    const base = row('base', `baseline ${BASE}`);
    const now = row('new', 'this build     ');
    const ratio = now / base;
    console.log(`  ratio this/baseline: ${ratio.toFixed(3)}`);
    const ok = verdict('a #report= link shows its first group table sooner than the baseline', ratio < 1, `ratio ${ratio.toFixed(3)}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    await plain.stop();
    await sites.base.stop();
    await sites.new.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(2); });
