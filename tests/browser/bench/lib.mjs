// Shared parts of the browser benchmarks: the generated inputs, the native figeval, timing
// helpers and the report printout. The benchmarks build nothing; see README.md here.
//
// Environment:
//   FIGEVAL_DIST     the built app (default <repo>/dist)
//   FIGEVAL_BIN      the figeval CLI (release build)
//   GEN_CAPTURE_BIN  figeval-bench's gen-capture (default: next to FIGEVAL_BIN, then
//                    <repo>/target/release)
//   BENCH_ITEMS      items in the generated dataset and capture (default 10000)
//   BENCH_RUNS       runs of each side, best kept (default 3)
//   CHROMIUM         the browser (default /usr/bin/chromium)

import { execFile, execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { DIST, FIGEVAL_BIN, CHROMIUM, REPO } from '../support.mjs';

export const ITEMS = Number(process.env.BENCH_ITEMS || 10000);
export const RUNS = Number(process.env.BENCH_RUNS || 3);

/** Exits 2 (cannot run) with a message. */
export function cannotRun(why) {
  console.error(`cannot run: ${why}`);
  process.exit(2);
}

/** Checks the app, the browser and figeval are there. */
export function requireTools() {
  if (!existsSync(path.join(DIST, 'index.html'))) cannotRun(`no built app at ${DIST} (trunk build --offline --release, or set FIGEVAL_DIST)`);
  if (!existsSync(CHROMIUM)) cannotRun(`no browser at ${CHROMIUM} (set CHROMIUM)`);
  if (!(FIGEVAL_BIN && existsSync(FIGEVAL_BIN))) cannotRun('FIGEVAL_BIN is not set to the figeval binary (cargo build --release -p figeval-cli)');
}

/**
 * A figeval-bench binary: `$ENV_VAR` when set, else next to FIGEVAL_BIN, else in
 * <repo>/target/release; exits "cannot run" saying how to build it.
 */
export function benchBin(name, envVar) {
  const candidates = [
    process.env[envVar],
    FIGEVAL_BIN && path.join(path.dirname(FIGEVAL_BIN), name),
    path.join(REPO, 'target/release', name),
  ].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (!found) cannotRun(`no ${name} binary (cargo build --release -p figeval-bench --bin ${name}, or set ${envVar}); looked at ${candidates.join(', ')}`);
  return found;
}

/** The generated dataset and capture of ITEMS items: { dataset, capture, items, seed, reused }. */
export function inputs() {
  const bin = benchBin('gen-capture', 'GEN_CAPTURE_BIN');
  const info = JSON.parse(execFileSync(bin, ['--items', String(ITEMS)], { encoding: 'utf8' }));
  info.bin = bin;
  info.captureMB = statSync(info.capture).size / 1e6;
  info.datasetMB = statSync(info.dataset).size / 1e6;
  return info;
}

/** Runs figeval with `args`, stdout to a buffer (or ignored); resolves { ms, stdout }. */
export function runFigeval(args, { keep = false } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = execFile(FIGEVAL_BIN, args, { maxBuffer: 1 << 30, cwd: REPO, encoding: keep ? 'utf8' : 'buffer' },
      (err, stdout, stderr) => {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (err) reject(new Error(`figeval ${args.join(' ')}: ${err.message}\n${stderr}`));
        else resolve({ ms, stdout: keep ? stdout : null });
      });
    if (!keep) child.stdout.resume();
  });
}

/**
 * Times `figeval ARGS > /dev/null` (best of RUNS) with the shell's redirection, so figeval
 * writes to /dev/null exactly as on the command line.
 */
export function timeNative(args, runs = RUNS) {
  const quoted = [FIGEVAL_BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    execFileSync('/bin/sh', ['-c', `${quoted} > /dev/null`], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return times;
}

export const best = (xs) => Math.min(...xs);
export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
export const ms = (x) => `${Math.round(x).toLocaleString('en-US')} ms`;
export const list = (xs) => xs.map((x) => Math.round(x)).join(', ');

/** The machine, for the printout. */
export function machine() {
  let cpu = 'unknown CPU';
  try {
    cpu = /model name\s*:\s*(.*)/.exec(execFileSync('cat', ['/proc/cpuinfo'], { encoding: 'utf8' }))?.[1] ?? cpu;
  } catch { /* not Linux */ }
  let load = '';
  try { load = execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' '); } catch { /* not Linux */ }
  let chromium = '';
  try { chromium = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { /* reported elsewhere */ }
  return `${cpu}; load average ${load}; ${chromium}`;
}

/** Prints a PASS/FAIL line; returns whether it passed. */
export function verdict(label, pass, detail) {
  console.log(`${pass ? 'PASS' : 'FAIL'}  ${label}: ${detail}`);
  return pass;
}

/**
 * Resolves when the element matching `selector` is in the document and rendered (not inside a
 * hidden page), with performance.now() at that moment. Runs in the page.
 */
export const PAGE_HELPERS = `
window.__figevalBench = {
  visible(el) { return !!el && el.getClientRects().length > 0; },
  when(selector, test = (el) => window.__figevalBench.visible(el)) {
    return new Promise((resolve) => {
      const check = () => {
        const el = document.querySelector(selector);
        if (el && test(el)) { obs.disconnect(); resolve(performance.now()); return true; }
        return false;
      };
      const obs = new MutationObserver(check);
      obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      check();
    });
  },
  // After the next frame is produced: a rAF callback runs before paint, a message posted from
  // it runs after the paint.
  painted() {
    return new Promise((resolve) => requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => resolve(performance.now());
      ch.port2.postMessage(0);
    }));
  },
};
`;

/**
 * Notes, in every document `page` opens, the moment the first group table is in it
 * (`performance.now()`: ms since the navigation began, redirects included); resolves that
 * moment once it is there.
 */
export async function noteFirstTable(page) {
  await page.addInitScript(() => {
    new MutationObserver((_, o) => {
      if (document.querySelector('[data-testid=group-table]')) {
        window.__tableAt = performance.now();
        o.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return async () => {
    await page.waitForSelector('[data-testid=group-table]', { timeout: 120_000 });
    return page.waitForFunction(() => window.__tableAt).then((h) => h.jsonValue());
  };
}
