// Short links and sign-in, in the page served by `figeval serve` (contract §15.5, §15.6). The
// Share card offers a run's short link: a report read from the server has one; a report made in
// the page is pushed first, which an admin session (or an open server) may do, and a read
// session is told so; a comparison's short link is `c/A,B`. On a server with tokens the Runs
// view asks to sign in: a read or admin token is exchanged for the server's HttpOnly session
// cookie, and the token is kept nowhere (not in storage, the address or the server's log);
// refusals are shown in the server's words; signing out ends the session. A static host offers
// no short link.
//
// Needs FIGEVAL_BIN (figeval serve, figeval score, figeval serve token create).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, showView, loadBundled, setField, missEvery, scratch,
  figeval, figevalReport, startServe, pushRun, linkReport, axeViolations,
} from './support.mjs';

const skip = missing({ figeval: true }) || false;
const h = appHarness(skip);
const OCTAVE = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));
const tmp = skip ? null : scratch();
after(() => tmp?.remove());

/** Scores a capture of the Octave dataset in the page (every `every`-th item missed). */
async function scoreHere(page, every) {
  await loadBundled(page, 'octave-manual-figures');
  await setField(page, 'responses-input', missEvery(OCTAVE, every));
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=share-link]');
  return linkReport(await page.locator('[data-testid=share-link]').inputValue());
}

/** A run read back from the server's API. */
async function stored(server, id, token = null) {
  const r = await fetch(`${server.url}api/runs/${id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  assert.equal(r.status, 200);
  return r.json();
}

test('on an open server the Share card pushes a report made in the page and gives its short link; a comparison gets c/A,B', { skip, timeout: 180_000 }, async () => {
  const server = await startServe();
  try {
    const page = await openApp(h.browser, server.url);
    const made = await scoreHere(page, 3);
    await page.click('[data-testid=short-push]');
    const short = await page.locator('[data-testid=short-link]').inputValue();
    const id = short.split('/r/')[1];
    assert.equal(short, `${server.url}r/${id}`);
    const run = await stored(server, id);
    assert.deepEqual(run.report.page_hit_at_3, made.page_hit_at_3, 'the report as it was made');
    assert.equal(run.name, await page.inputValue('[data-testid=report-name]'), 'under its name');
    // Shown again, it is not pushed twice.
    await showView(page, 'workbench');
    await showView(page, 'report');
    assert.equal(await page.locator('[data-testid=short-link]').inputValue(), short);
    const listed = await (await fetch(`${server.url}api/runs`)).json();
    assert.equal(listed.runs.length, 1, 'pushed once');

    // A comparison of the stored run and one made here: the second is pushed, then c/A,B.
    await page.click('[data-testid=compare-as-before]');
    await scoreHere(page, 7);
    await showView(page, 'report');
    await page.click('[data-testid=compare-as-after]');
    await page.waitForSelector('[data-testid=comparison]');
    await page.click('[data-testid=compare-short-push]');
    const pair = await page.locator('[data-testid=compare-short-link]').inputValue();
    const ids = pair.split('/c/')[1].split(',');
    assert.equal(ids[0], id, 'the baseline first');
    assert.equal(ids.length, 2);
    assert.deepEqual(await axeViolations(page), [], 'axe with the short links');
    await page.goto(pair);
    await page.waitForSelector('[data-testid=comparison]');
    assert.equal(new URL(page.url()).hash, `#runs=${ids.join(',')}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  } finally {
    await server.stop();
  }
});

test('a static host offers no short link', { skip }, async () => {
  const page = await openApp(h.browser, h.site.url);
  await scoreHere(page, 3);
  await page.waitForTimeout(300);
  assert.equal(await page.locator('[data-testid^=short-]').count(), 0);
  await page.context().close();
});

test('on a server with tokens the page signs in with a read or admin token for a session cookie, keeps the token nowhere, shows refusals in words and signs out', { skip, timeout: 240_000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'figeval-tokens-'));
  const store = `sqlite:${path.join(dir, 'runs.db')}`;
  const token = async (name, scope) => {
    const r = await figeval(['serve', 'token', 'create', '--store', store, '--name', name, '--scope', scope]);
    assert.equal(r.code, 0, r.stderr);
    return (r.stdout + r.stderr).trim().split(/\s+/).at(-1);
  };
  const [reader, admin, pusher] = [await token('reader', 'read'), await token('boss', 'admin'), await token('ci', 'push')];
  const server = await startServe([], { store });
  try {
    const capture = tmp.file('octave-3.jsonl', missEvery(OCTAVE, 3));
    const report = await figevalReport(['score', '--responses', capture, '--dataset', OCTAVE_DATASET]);
    const ci = await pushRun(server.url, { report, name: 'from ci' }, pusher);

    const page = await openApp(h.browser, server.url);
    await showView(page, 'runs');
    await page.waitForSelector('[data-testid=history-sign-in]');
    assert.match(await page.textContent('[data-testid=history-source]'), /you are not signed in/);
    assert.equal(await page.locator('[data-testid=history-stored]').count(), 0, 'nothing listed before signing in');
    assert.deepEqual(await axeViolations(page), [], 'axe on the sign-in card');
    const signIn = async (t) => {
      await page.fill('[data-testid=history-token]', t);
      await page.click('[data-testid=history-sign-in-submit]');
    };
    await signIn('figeval_not-a-token');
    await page.waitForSelector('[data-testid=history-sign-in-error]');
    assert.equal(await page.textContent('[data-testid=history-sign-in-error]'), 'the token is not known, or was revoked');
    assert.equal(await page.inputValue('[data-testid=history-token]'), '', 'the field is emptied');
    await signIn(pusher);
    await page.waitForFunction(() => /push token/.test(document.querySelector('[data-testid=history-sign-in-error]')?.textContent));
    assert.equal(await page.textContent('[data-testid=history-sign-in-error]'), 'a push token cannot sign in to the page: sign in with a read or admin token');

    await signIn(reader);
    await page.waitForSelector('[data-testid=history-stored] [data-testid=history-row]');
    assert.match(await page.textContent('[data-testid=history-source]'), /signed in as reader \(read\)/);
    assert.equal(await page.locator('[data-testid=history-sign-in]').count(), 0);
    // The session is a cookie the page cannot read; the token is nowhere in the page.
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'figeval_session');
    assert.ok(session && session.httpOnly && session.sameSite === 'Strict', JSON.stringify(cookies));
    const kept = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, location.href]));
    for (const t of [reader, pusher]) {
      assert.ok(!kept.includes(t), 'no token in storage, cookies the page reads, or the address');
      assert.ok(!server.log().includes(t), 'no token in the server\'s log');
    }
    assert.equal(session.value.includes(reader), false);

    // A read session opens a stored run; a report made here needs an admin to push it.
    await page.click('[data-testid=history-open]');
    await page.waitForSelector('[data-testid=report-view]');
    assert.equal(new URL(page.url()).hash, `#run=${ci.id}`);
    assert.equal(await page.locator('[data-testid=short-link]').inputValue(), `${server.url}r/${ci.id}`);
    await scoreHere(page, 7);
    await page.waitForSelector('[data-testid=short-needs]');

    // A page without the session is asked to sign in, in words.
    const other = await openApp(h.browser, `${server.url}#run=${ci.id}`);
    await other.locator('[data-testid=error-banner]').waitFor();
    assert.match(await other.textContent('[data-testid=error-banner]'), /This run cannot be opened.*sign in first: open Runs and sign in with a read or admin token/);
    await other.context().close();

    // Signed out, the list goes; an admin may push.
    await showView(page, 'runs');
    await page.click('[data-testid=history-sign-out]');
    await page.waitForSelector('[data-testid=history-sign-in]');
    assert.equal((await page.context().cookies()).some((c) => c.name === 'figeval_session' && c.value), false, 'the cookie is cleared');
    await signIn(admin);
    await page.waitForSelector('[data-testid=history-stored] [data-testid=history-row]');
    await showView(page, 'report');
    await page.click('[data-testid=short-push]');
    const short = await page.locator('[data-testid=short-link]').inputValue();
    assert.equal((await stored(server, short.split('/r/')[1], admin)).name, await page.inputValue('[data-testid=report-name]'));
    assert.ok(!server.log().includes(admin));
    assert.deepEqual(page.problems.filter((p) => !/401|403/.test(p)), []);
    await page.context().close();
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
