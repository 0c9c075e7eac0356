// The browser app runs 500 questions live without growing memory without bound. See README.md
// here for the commands, the targets and the figures.
//
//   node tests/browser/bench/live-load.mjs
//
// One refsearch over the Octave manual (127.0.0.1:0), the built app, headless Chromium. The
// datasets come from gen-questions (figeval-bench): each question quotes one line of a page of
// the manual and expects that page.
//
// - Baseline: a fresh page runs 100 questions live at the app's default settings (only the
//   base URL is set).
// - Load: another fresh page runs 500 questions live, then again and again in the same page
//   (5 runs in all; each "Run live" replaces the previous run, and its report replaces the
//   previous report when it is shown).
// - Control: the same 5 runs in a page Playwright does not instrument (see below), for the
//   renderer's resident set.
//
// Memory is sampled after a full garbage collection (CDP HeapProfiler.collectGarbage), at every
// 50 answered while a run goes and once its report is shown: the JS heap in use
// (Performance.getMetrics JSHeapUsedSize), the DOM nodes alive (metric Nodes), the app's
// WebAssembly memory (its `memory` export; a high-water mark, since wasm memory never shrinks)
// and the resident set (VmRSS, /proc) of the renderer that did the work. The capture the app
// keeps is downloaded at the end to measure its bytes per question. The pages' numbers are
// checked against `figeval run` on the same deployment.
//
// Playwright enables the DevTools Network domain in every page it drives, and the renderer then
// keeps every response body for Network.getResponseBody: the load page's RSS grows with every
// run for that reason alone. The control page lives in a browser context created over CDP,
// which Playwright leaves alone (it detaches from targets of contexts it did not create); it is
// driven with Runtime.evaluate through Target.sendMessageToTarget, and only Runtime,
// Performance and HeapProfiler are used there.
//
// Targets (reasons in README.md): every run completes with all its items, figeval run's numbers
// and no failure banner; while a run goes, JS heap + wasm memory grow by at most 1.5x the
// capture bytes per answered question; after run 3, the JS heap within 1.2x of run 1's and wasm
// memory at most 4 captures above it (the previous report and capture are alive while a run
// finishes); from run 3 to run 5 (the steady state), the JS heap and the control's RSS within
// 1.05x and wasm memory at most 1 capture higher; DOM nodes within 1.05x from run 1 to run 5,
// from the 100- to the 500-question report, and from the first to the last checkpoint of a run.
// Exit 0 PASS, 1 FAIL, 2 cannot run.
//
// Environment (besides lib.mjs's FIGEVAL_DIST, FIGEVAL_BIN, CHROMIUM):
//   REFSEARCH_BIN       the refsearch binary (required)
//   GEN_QUESTIONS_BIN   figeval-bench's gen-questions (default: next to FIGEVAL_BIN, then
//                       <repo>/target/release)
//   FIGEVAL_OCTAVE_PDF  the Octave manual (default /usr/share/doc/octave/octave.pdf)
//   BENCH_QUESTIONS     questions of the load runs (default 500)
//   BENCH_BASELINE      questions of the baseline run (default 100)
//   BENCH_REPEATS       load runs in the same page (default 5, at least 4)

import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  REFSEARCH_BIN, manualMissing, startRefsearch, serveDist, launch, openApp, setField,
  readGroupTable, assertTableMatchesReport, figevalReport, scratch,
} from '../support.mjs';
import { benchBin, cannotRun, requireTools, machine, verdict, mean, ms, PAGE_HELPERS } from './lib.mjs';

const QUESTIONS = Number(process.env.BENCH_QUESTIONS || 500);
const BASELINE = Number(process.env.BENCH_BASELINE || 100);
const REPEATS = Number(process.env.BENCH_REPEATS || 5);
const CHECKPOINT = 50;
const RUN_TIMEOUT_MS = 15 * 60_000;

// Targets (see README.md).
const PER_ANSWER_MAX = 1.5; // (JS heap + wasm) growth while a run goes, vs capture bytes per question
const HEAP_RUN3_MAX = 1.2; // JS heap after run 3 vs after run 1
const WASM_RUN3_CAPTURES = 4; // wasm memory after run 3 - after run 1, in capture sizes
const STEADY_MAX = 1.05; // last run vs run 3: JS heap, the control's RSS
const WASM_STEADY_CAPTURES = 1; // wasm memory after the last run - after run 3, in capture sizes
const NODES_MAX = 1.05; // DOM nodes

// --- tools ----------------------------------------------------------------------------------
requireTools();
if (!(REFSEARCH_BIN && existsSync(REFSEARCH_BIN))) cannotRun('REFSEARCH_BIN is not set to the refsearch binary (cargo build --release -p refsearch)');
if (manualMissing()) cannotRun(manualMissing());
const genBin = benchBin('gen-questions', 'GEN_QUESTIONS_BIN');
if (!(QUESTIONS > BASELINE && BASELINE >= CHECKPOINT && REPEATS >= 4)) {
  cannotRun(`need BENCH_QUESTIONS (${QUESTIONS}) > BENCH_BASELINE (${BASELINE}) >= ${CHECKPOINT}, and BENCH_REPEATS (${REPEATS}) >= 4`);
}
if (!existsSync('/proc/self/status')) cannotRun('no /proc (the renderer\'s resident set is read there)');

// --- the renderer processes (/proc) ---------------------------------------------------------
function procStat(pid) {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]) }; // utime + stime, in ticks
}

/** The Chromium renderer processes this script started (at any depth): [pid]. */
function renderers() {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try { parent.set(Number(name), procStat(name).ppid); } catch { /* gone */ }
  }
  const ours = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = parent.get(p), hops++) if (p === process.pid) return true;
    return false;
  };
  return [...parent.keys()].filter((pid) => {
    try { return ours(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer'); } catch { return false; }
  });
}
function rssBytes(pid) {
  try { return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024; } catch { return NaN; }
}
const cpuSnapshot = () => Object.fromEntries(renderers().map((pid) => {
  try { return [pid, procStat(pid).cpu]; } catch { return [pid, 0]; }
}));
/** The renderer that used the most CPU between two cpuSnapshot()s: the one running the app. */
function busiest(before, after) {
  let top = null;
  for (const [pid, t] of Object.entries(after)) {
    const used = t - (before[pid] ?? 0);
    if (!top || used > top.used) top = { pid: Number(pid), used };
  }
  return top?.pid;
}

// --- in the page ----------------------------------------------------------------------------
// Run in the page, they return plain values (the same code serves both kinds of page).
const IN_PAGE = {
  // wasm-bindgen's init returns the instance's exports once boot.js has initialised it.
  wasmAndDom: `(async () => {
    if (!window.__liveLoadMemory) {
      const mod = await import(new URL('figeval-web.js', document.baseURI).href);
      window.__liveLoadMemory = (await mod.default()).memory;
    }
    const p = document.querySelector('[data-testid=progress]');
    return { wasm: window.__liveLoadMemory.buffer.byteLength, elements: document.getElementsByTagName('*').length,
      done: Number(p?.dataset.done), status: p?.dataset.status };
  })()`,
  start: `(() => {
    document.querySelector('[data-testid=tab-workbench]').click();
    document.querySelector('[data-testid=run-live]').click();
  })()`,
  // 'banner', 'finished', 'running' (with the number answered) or 'starting'.
  state: `(() => {
    const p = document.querySelector('[data-testid=progress]');
    if (document.querySelector('[data-testid=error-banner]')) return { state: 'banner' };
    if (p.dataset.status === 'finished' && document.querySelector('[data-testid=report-view]')?.checkVisibility()) return { state: 'finished' };
    return { state: p.dataset.status === 'running…' ? 'running' : 'starting', done: Number(p.dataset.done) };
  })()`,
  report: `(() => {
    const count = document.querySelector('[data-testid=items-count]');
    const banner = document.querySelector('[data-testid=error-banner]');
    return { total: Number(count?.dataset.total), rows: document.querySelectorAll('[data-testid=item-row]').length,
      banner: banner ? banner.textContent.trim().slice(0, 300) : '' };
  })()`,
};

/**
 * One sample of a page after a full GC. `target` is a Playwright page or the control page, as
 * { send(method, params): CDP to the page, evaluate(expression): its value }. The RSS of every
 * renderer of ours is kept; the run's renderer is picked afterwards (see busiest()).
 */
async function sample(target, label) {
  await target.send('HeapProfiler.collectGarbage');
  await target.send('HeapProfiler.collectGarbage');
  const { metrics } = await target.send('Performance.getMetrics');
  const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
  const inPage = await target.evaluate(IN_PAGE.wasmAndDom);
  const rss = Object.fromEntries(renderers().map((pid) => [pid, rssBytes(pid)]));
  return { label, heap: m.JSHeapUsedSize, nodes: m.Nodes, listeners: m.JSEventListeners, ...inPage, rss };
}

/**
 * Clicks "Run live" and waits for the report, sampling at every CHECKPOINT answered (the run
 * goes on while a sample is taken, so a sample's `done` is where it actually was). Returns
 * { ms, samples, end, pid, total, rows, banner }.
 */
async function liveRun(target, total, name) {
  const cpu0 = cpuSnapshot();
  await target.evaluate(IN_PAGE.start);
  const t0 = Date.now();
  const samples = [];
  let next = CHECKPOINT;
  let s;
  for (;;) {
    s = await target.evaluate(IN_PAGE.state);
    if (s.state === 'banner' || s.state === 'finished') break;
    if (Date.now() - t0 > RUN_TIMEOUT_MS) { s = { state: 'timeout' }; break; }
    if (s.state === 'starting' && Date.now() - t0 > 60_000) { s = { state: 'not started' }; break; }
    if (s.state === 'running' && s.done >= next && next < total) {
      const got = await sample(target, `${name} ${next}`);
      samples.push(got);
      next = Math.ceil((got.done + 1) / CHECKPOINT) * CHECKPOINT;
    } else {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const runMs = Date.now() - t0;
  await target.painted?.();
  const end = await sample(target, `${name} end`);
  const pid = busiest(cpu0, cpuSnapshot());
  for (const one of [...samples, end]) one.pid = pid;
  const report = await target.evaluate(IN_PAGE.report);
  return { name, n: total, ms: runMs, samples, end, pid, ended: s.state, ...report };
}

/** A Playwright page (openApp) as a measuring target. */
async function playwrightPage(browser, siteUrl, datasetFile, n, baseUrl) {
  const page = await openApp(browser, siteUrl, { acceptDownloads: true });
  await page.evaluate(PAGE_HELPERS);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.setInputFiles('[data-testid=dataset-file]', datasetFile);
  await page.waitForFunction((k) => document.querySelector('[data-testid=dataset-status]')?.textContent.includes(`${k} items`),
    n, { timeout: 60_000, polling: 50 });
  await setField(page, 'base-url', baseUrl);
  return {
    page,
    send: (method, params) => cdp.send(method, params),
    evaluate: (expression) => page.evaluate(expression),
    painted: () => page.evaluate(() => window.__figevalBench.painted()),
    concurrency: await page.inputValue('[data-testid=concurrency]'),
  };
}

/**
 * The control page: a browser context created over CDP, so Playwright does not attach to its
 * page (no Network domain); CDP goes through Target.sendMessageToTarget.
 */
async function controlPage(browser, siteUrl, datasetText, n, baseUrl) {
  const b = await browser.newBrowserCDPSession();
  const { browserContextId } = await b.send('Target.createBrowserContext', { disposeOnDetach: true });
  const { targetId } = await b.send('Target.createTarget', { url: 'about:blank', browserContextId });
  const { sessionId } = await b.send('Target.attachToTarget', { targetId, flatten: false });
  let id = 0;
  const waiting = new Map();
  b.on('Target.receivedMessageFromTarget', (e) => {
    if (e.sessionId !== sessionId) return;
    const msg = JSON.parse(e.message);
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(`${w.method}: ${msg.error.message}`));
    else w.resolve(msg.result);
  });
  const send = (method, params = {}) => new Promise((resolve, reject) => {
    const k = ++id;
    waiting.set(k, { resolve, reject, method });
    b.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: k, method, params }) }).catch(reject);
  });
  const evaluate = async (expression) => {
    const r = await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`in the control page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  };
  const until = async (expression, timeout = 60_000) => {
    for (const t0 = Date.now(); !(await evaluate(expression));) {
      if (Date.now() - t0 > timeout) throw new Error(`the control page: no ${expression} within ${timeout} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await send('Performance.enable');
  await send('Page.navigate', { url: siteUrl });
  await until(`!!document.querySelector('[data-testid=dataset-input]')`, 30_000);
  // As setField pastes: the whole text in one input event.
  const paste = (testid, value) => evaluate(`(() => {
    const el = document.querySelector('[data-testid=${testid}]');
    el.focus(); el.value = ${JSON.stringify(value)};
    el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
  })()`);
  await paste('dataset-input', datasetText);
  await until(`document.querySelector('[data-testid=dataset-status]')?.textContent.includes('${n} items')`);
  await paste('base-url', baseUrl);
  await until(`document.querySelector('[data-testid=base-url]').value === ${JSON.stringify(baseUrl)} && !document.querySelector('[data-testid=run-live]').disabled`);
  return { send, evaluate, close: () => b.send('Target.disposeBrowserContext', { browserContextId }).catch(() => {}).then(() => b.detach()) };
}

// --- the runs -------------------------------------------------------------------------------
const tmp = scratch();
const datasets = {};
for (const n of [BASELINE, QUESTIONS]) {
  datasets[n] = path.join(tmp.dir, `questions-${n}.json`);
  execFileSync(genBin, ['--count', String(n), '--out', datasets[n]], { stdio: ['ignore', 'ignore', 'inherit'] });
}
console.log(`live load, ${QUESTIONS} questions (baseline ${BASELINE}, ${REPEATS} runs) — ${machine()}`);
console.log(`  datasets from ${genBin}: ${QUESTIONS} questions ${(statSync(datasets[QUESTIONS]).size / 1e3).toFixed(1)} kB, `
  + `${BASELINE} questions ${(statSync(datasets[BASELINE]).size / 1e3).toFixed(1)} kB`);

let dep, site, browser;
let stopping;
// Every stop starts at once (refsearch gets its SIGTERM in the call), so nothing is left behind
// even when Playwright's own Ctrl-C handler ends the process first.
const stopAll = () => (stopping ||= Promise.allSettled([dep?.stop(), site?.stop(), browser?.close()])
  .then(() => tmp.remove()));
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    const done = stopAll();
    tmp.remove();
    done.finally(() => process.exit(130));
  });
}

const problems = [];
let baseline, baselineIdle, loadIdle, controlIdle, concurrency, captureBytes = NaN, captureLines = NaN;
const load = [];
const control = [];
const cli = {};
try {
  dep = await startRefsearch();
  console.log(`  refsearch ${dep.url} (${REFSEARCH_BIN})`);
  for (const n of [BASELINE, QUESTIONS]) {
    const t = Date.now();
    cli[n] = await figevalReport(['run', '--base-url', dep.url, '--dataset', datasets[n]]);
    console.log(`  figeval run, ${n} questions: ${ms(Date.now() - t)}, page_hit_at_3 ${cli[n].page_hit_at_3} (${cli[n].page_hit_at_3_hits}/${cli[n].n})`);
  }
  site = await serveDist();
  browser = await launch();

  const check = (r) => {
    if (r.banner) problems.push(`${r.name}: failure banner: ${r.banner}`);
    if (r.ended !== 'finished' || r.end.status !== 'finished') problems.push(`${r.name}: the run ended "${r.ended}", status "${r.end.status}"`);
    if (r.total !== r.n) problems.push(`${r.name}: the report lists ${r.total} items, not ${r.n}`);
  };
  const checkTable = async (page, r) => {
    try {
      assertTableMatchesReport(assert, await readGroupTable(page), cli[r.n]);
    } catch (e) {
      problems.push(`${r.name}: the page's table is not figeval run's: ${e.message.split('\n')[0]}`);
    }
  };

  // Baseline: BASELINE questions in a fresh page.
  {
    const t = await playwrightPage(browser, site.url, datasets[BASELINE], BASELINE, dep.url);
    concurrency = t.concurrency;
    baselineIdle = await sample(t, 'baseline idle');
    baseline = await liveRun(t, BASELINE, 'baseline');
    baselineIdle.pid = baseline.pid;
    baseline.from = baselineIdle;
    check(baseline);
    await checkTable(t.page, baseline);
    problems.push(...t.page.problems.map((p) => `baseline page: ${p}`));
    await t.page.context().close();
  }

  // Load: QUESTIONS questions, REPEATS runs in the same page.
  {
    const t = await playwrightPage(browser, site.url, datasets[QUESTIONS], QUESTIONS, dep.url);
    loadIdle = await sample(t, 'load idle');
    for (let i = 1; i <= REPEATS; i++) {
      const r = await liveRun(t, QUESTIONS, `run ${i}`);
      check(r);
      if (i === 1 || i === REPEATS) await checkTable(t.page, r);
      load.push(r);
    }
    loadIdle.pid = load[0].pid;
    load[0].from = loadIdle;
    // The capture the app keeps (and offers as a download) for the last run.
    const [download] = await Promise.all([t.page.waitForEvent('download'), t.page.click('[data-testid=download-report-capture]')]);
    const text = readFileSync(await download.path(), 'utf8');
    captureBytes = Buffer.byteLength(text);
    captureLines = text.split('\n').filter(Boolean).length;
    if (captureLines !== QUESTIONS) problems.push(`the capture has ${captureLines} lines, not ${QUESTIONS}`);
    problems.push(...t.page.problems.map((p) => `load page: ${p}`));
    await t.page.context().close();
  }

  // Control: the same runs in a page without Playwright's instrumentation.
  {
    const t = await controlPage(browser, site.url, readFileSync(datasets[QUESTIONS], 'utf8'), QUESTIONS, dep.url);
    controlIdle = await sample(t, 'control idle');
    for (let i = 1; i <= REPEATS; i++) {
      const r = await liveRun(t, QUESTIONS, `control ${i}`);
      check(r);
      control.push(r);
    }
    controlIdle.pid = control[0].pid;
    control[0].from = controlIdle;
    await t.close();
  }
} finally {
  await stopAll();
}

// --- figures --------------------------------------------------------------------------------
const MB = (b) => `${(b / 1e6).toFixed(2)} MB`;
const kB = (b) => `${(b / 1e3).toFixed(1)} kB`;
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : 'n/a');
const rssOf = (s) => s.rss[s.pid] ?? NaN;
const row = (s) => `  ${s.label.padEnd(14)} ${String(Number.isFinite(s.done) ? s.done : '').padStart(4)}  `
  + `${MB(s.heap).padStart(9)}  ${MB(s.wasm).padStart(9)}  ${MB(rssOf(s)).padStart(10)}  `
  + `${String(s.nodes).padStart(5)}  ${String(s.elements).padStart(5)}`;
const header = `  ${'sample'.padEnd(14)} ${'done'.padStart(4)}  ${'JS heap'.padStart(9)}  ${'wasm mem'.padStart(9)}  `
  + `${'rend. RSS'.padStart(10)}  ${'nodes'.padStart(5)}  ${'elems'.padStart(5)}`;
/** Least-squares slope of `f(sample)` against the number answered (bytes a question). */
function slope(samples, f) {
  if (samples.length < 2) return NaN;
  const xs = samples.map((s) => s.done);
  const ys = samples.map(f);
  const mx = mean(xs);
  const my = mean(ys);
  const num = xs.reduce((a, xi, i) => a + (xi - mx) * (ys[i] - my), 0);
  const den = xs.reduce((a, xi) => a + (xi - mx) ** 2, 0);
  return den ? num / den : NaN;
}
const printRuns = (title, idle, rs) => {
  console.log(`\n${title}`);
  console.log(header);
  console.log(row(idle));
  for (const r of rs) {
    for (const s of [...r.samples, r.end]) console.log(row(s));
    console.log(`    ${r.name}: ${ms(r.ms)} click → report (${(r.n / (r.ms / 1000)).toFixed(0)} questions/s), `
      + `${r.rows} item rows in the DOM, renderer ${r.pid}`);
  }
};
console.log(`\napp default concurrency ${concurrency}; samples after a full GC; wasm memory is a high-water mark`);
printRuns(`baseline page, ${BASELINE} questions (Playwright)`, baselineIdle, [baseline]);
printRuns(`load page, ${QUESTIONS} questions × ${REPEATS} (Playwright)`, loadIdle, load);
printRuns(`control page, ${QUESTIONS} questions × ${REPEATS} (not instrumented)`, controlIdle, control);

const perQ = captureBytes / QUESTIONS;
const [r1, r3, rN] = [load[0].end, load[2].end, load.at(-1).end];
const [c3, cN] = [control[2].end, control.at(-1).end];
const runs = [baseline, ...load, ...control];
// A page's first run starts from the page's idle sample (0 answered), later runs from their
// first checkpoint (their start reuses memory the run before freed).
const points = (r) => (r.from ? [r.from, ...r.samples] : r.samples);
const perAnswer = runs.map((r) => ({ name: r.name, heap: slope(points(r), (s) => s.heap), wasm: slope(points(r), (s) => s.wasm) }));
const worst = perAnswer.reduce((a, b) => ((b.heap + b.wasm) > (a.heap + a.wasm) ? b : a));
const endNodes = (r) => r.end.nodes;
const nodeDrift = runs.filter((r) => r.samples.length >= 2).map((r) => ({ name: r.name, ratio: r.samples.at(-1).nodes / r.samples[0].nodes }));
const worstDrift = nodeDrift.reduce((a, b) => (b.ratio > a.ratio ? b : a));
const rssSteps = (rs) => rs.slice(1).map((r, i) => (rssOf(r.end) - rssOf(rs[i].end)) / 1e6);

console.log(`\ncapture kept by the app: ${MB(captureBytes)} for ${captureLines} lines = ${kB(perQ)} a question`);
console.log(`growth per answered question while a run goes (slope over its checkpoints), JS heap + wasm:`);
for (const p of perAnswer) console.log(`  ${p.name.padEnd(11)} heap ${kB(p.heap).padStart(8)}, wasm ${kB(p.wasm).padStart(8)} = ${x((p.heap + p.wasm) / perQ)} the capture`);
console.log(`after the report, ${BASELINE} → ${QUESTIONS} questions (high-water, includes the end-of-run peak): `
  + `wasm ${kB((r1.wasm - baseline.end.wasm) / (QUESTIONS - BASELINE))} a question (${x((r1.wasm - baseline.end.wasm) / (QUESTIONS - BASELINE) / perQ)} the capture), `
  + `JS heap ${kB((r1.heap - baseline.end.heap) / (QUESTIONS - BASELINE))} a question`);
console.log(`${QUESTIONS} / ${BASELINE} questions, after the report (run 1 / baseline): JS heap ${x(r1.heap / baseline.end.heap)}, `
  + `wasm ${x(r1.wasm / baseline.end.wasm)}, renderer RSS ${x(rssOf(r1) / rssOf(baseline.end))}, DOM nodes ${x(r1.nodes / baseline.end.nodes)}`);
console.log(`renderer RSS after each run, change from the run before: load page (Playwright) ${rssSteps(load).map((d) => `${d >= 0 ? '+' : ''}${d.toFixed(1)}`).join(', ')} MB; `
  + `control ${rssSteps(control).map((d) => `${d >= 0 ? '+' : ''}${d.toFixed(1)}`).join(', ')} MB\n`);

let ok = verdict(`every run completes: all items, figeval run's numbers, no failure banner`, problems.length === 0,
  problems.length ? problems.slice(0, 5).join('; ') : `${runs.length} runs (${BASELINE} + ${REPEATS}×${QUESTIONS} + ${REPEATS}×${QUESTIONS} control), the tables of the baseline, run 1 and run ${REPEATS} checked`);
ok = verdict(`while a run goes, JS heap + wasm grow ≤ ${PER_ANSWER_MAX}x the capture bytes per answered question`,
  perAnswer.every((p) => p.heap + p.wasm <= PER_ANSWER_MAX * perQ), // NaN (no checkpoints) fails
  `worst ${worst.name}: ${kB(worst.heap + worst.wasm)} a question vs capture ${kB(perQ)} = ${x((worst.heap + worst.wasm) / perQ)}`) && ok;
const captures = (bytes) => `${(bytes / captureBytes).toFixed(2)} captures`;
ok = verdict(`after run 3 vs run 1: JS heap ≤ ${HEAP_RUN3_MAX}x, wasm memory ≤ +${WASM_RUN3_CAPTURES} captures`,
  r3.heap <= HEAP_RUN3_MAX * r1.heap && r3.wasm - r1.wasm <= WASM_RUN3_CAPTURES * captureBytes,
  `JS heap ${x(r3.heap / r1.heap)} (${MB(r1.heap)} → ${MB(r3.heap)}), wasm ${x(r3.wasm / r1.wasm)} `
  + `(${MB(r1.wasm)} → ${MB(r3.wasm)}, +${captures(r3.wasm - r1.wasm)})`) && ok;
ok = verdict(`steady state, after run ${REPEATS} vs run 3: JS heap ≤ ${STEADY_MAX}x, wasm memory ≤ +${WASM_STEADY_CAPTURES} capture, `
  + `the control's renderer RSS ≤ ${STEADY_MAX}x`,
  rN.heap <= STEADY_MAX * r3.heap && rN.wasm - r3.wasm <= WASM_STEADY_CAPTURES * captureBytes && rssOf(cN) <= STEADY_MAX * rssOf(c3),
  `JS heap ${x(rN.heap / r3.heap)}, wasm ${x(rN.wasm / r3.wasm)} (+${captures(rN.wasm - r3.wasm)}), `
  + `control RSS ${x(rssOf(cN) / rssOf(c3))} (${MB(rssOf(c3))} → ${MB(rssOf(cN))})`) && ok;
ok = verdict(`DOM nodes do not grow with questions or runs (≤ ${NODES_MAX}x)`,
  endNodes(load.at(-1)) <= NODES_MAX * endNodes(load[0]) && endNodes(load[0]) <= NODES_MAX * endNodes(baseline)
    && worstDrift.ratio <= NODES_MAX,
  `run ${REPEATS} / run 1 ${x(endNodes(load.at(-1)) / endNodes(load[0]))} (${endNodes(load.at(-1))} / ${endNodes(load[0])}), `
  + `${QUESTIONS} / ${BASELINE} questions ${x(endNodes(load[0]) / endNodes(baseline))} (${endNodes(load[0])} / ${endNodes(baseline)}), `
  + `within a run at most ${x(worstDrift.ratio)} (${worstDrift.name})`) && ok;
console.log(`info  renderer RSS of the Playwright page, after run ${REPEATS} vs run 3: ${x(rssOf(rN) / rssOf(r3))} `
  + `(${MB(rssOf(r3))} → ${MB(rssOf(rN))}); it includes the response bodies DevTools keeps for Playwright`);
process.exit(ok ? 0 : 1);
