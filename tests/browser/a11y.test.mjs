// Accessibility (WCAG 2.1 AA): axe-core finds no violation, of any impact, in every view and
// state the app reaches; the document has one outline (one h1, headings in order, main, a nav
// of view tabs); the keyboard alone drives a whole flow with focus always visible; screen
// readers get a name for every control, the group table's cells and the chart's bars in words,
// and live announcements; hit and miss, gained and lost, regressed never rest on colour alone.
//
// axe-core is a test dependency (tests/browser/package.json), never in the bundle; support.mjs's
// axeViolations says how it runs under the page's CSP. A new view or state reached here cannot
// regress: add it to one of these tests.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  OCTAVE_DATASET, missing, appHarness, openApp, loadBundled, setField, readGroupTable, fixed2,
  fakeDeployment, searchBody, variedBodies, axeViolations, countByRule, markContrasts,
} from './support.mjs';

const skip = missing() || false;
const shared = appHarness(skip);
const octave = JSON.parse(readFileSync(OCTAVE_DATASET, 'utf8'));
const capture = (shift = 0) => variedBodies(octave, shift).map((b) => JSON.stringify(b)).join('\n');
const BUNDLED = ['octave-manual-figures', 'nasa-apollo-11-figures'];
const SPOKEN = {
  page_hit_at_3: 'page hit at 3', precise_page_hit_at_3: 'precise page hit at 3',
  figure_chunk_at_3: 'figure chunk at 3', page_hit_at_5: 'page hit at 5',
};


/** Collects axe's violations of the page in `state`; `assertNone` then fails listing them all. */
function axeLog(t) {
  const found = {};
  return {
    async check(page, state) {
      const v = await axeViolations(page);
      // The counts per state are printed either way (web/README.md records them).
      t.diagnostic(`axe ${state}: ${v.length ? JSON.stringify(countByRule(v)) : 'no violation'}`);
      if (v.length) found[state] = v;
    },
    assertNone() {
      const short = Object.fromEntries(Object.entries(found).map(([s, v]) => [s, countByRule(v)]));
      assert.deepEqual(short, {}, `axe violations:\n${JSON.stringify(found, null, 1).slice(0, 8000)}`);
    },
  };
}

/** Scores the varied capture of the Octave dataset in a fresh page; resolves the page. */
async function scoredReport(options = {}, text = capture()) {
  const page = await openApp(shared.browser, shared.site.url, options);
  await loadBundled(page, 'octave-manual-figures');
  await setField(page, 'responses-input', text);
  await page.click('[data-testid=score-offline]');
  await page.waitForSelector('[data-testid=group-table]', { state: 'visible' });
  return page;
}

/** Two reports of the Octave dataset in the compare view. */
async function comparing(page) {
  await page.click('[data-testid=compare-as-before]');
  await page.click('[data-testid=tab-workbench]');
  await setField(page, 'responses-input', capture(1));
  await page.click('[data-testid=score-offline]');
  await page.click('[data-testid=compare-as-after]');
  await page.waitForSelector('[data-testid=comparison]');
}

test('the workbench has no axe violation: empty, with each bundled dataset, with invalid input, and the empty views', { skip }, async (t) => {
  const axe = axeLog(t);
  const page = await openApp(shared.browser, shared.site.url);
  await axe.check(page, 'workbench, nothing loaded');
  for (const id of BUNDLED) {
    await loadBundled(page, id);
    await axe.check(page, `workbench, ${id} loaded`);
  }
  await setField(page, 'dataset-input', '{"corpus_id": "x",\n "items": [}');
  await page.waitForSelector('[data-testid=dataset-errors]');
  await setField(page, 'top-k', '3');
  await page.waitForSelector('[data-testid=settings-error]');
  await axe.check(page, 'workbench, invalid dataset and settings');
  await page.click('[data-testid=tab-report]');
  await axe.check(page, 'report view, no report');
  await page.click('[data-testid=tab-compare]');
  await axe.check(page, 'compare view, empty');
  assert.deepEqual(page.problems, []);
  await page.context().close();
  axe.assertNone();
});

test('a live run in progress and a failed run have no axe violation; progress is a live region and the banner an alert that takes focus', { skip }, async (t) => {
  const axe = axeLog(t);
  const items = octave.items.slice(0, 4);
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const dep = await fakeDeployment((n, body) => (n === 1
    ? { status: 200, body: searchBody(body.query, [[items[0].expected_pages[0], items[0].expected_pages[0]]], 'figure') }
    : held.then(() => ({ status: 500, body: 'the index is gone', contentType: 'text/plain' }))));
  try {
    const page = await openApp(shared.browser, shared.site.url);
    await setField(page, 'dataset-input', JSON.stringify({ corpus_id: octave.corpus_id, items }));
    await page.waitForSelector('[data-testid=dataset-status]');
    await setField(page, 'base-url', dep.url);
    await setField(page, 'concurrency', '1');
    await setField(page, 'retries', '0');
    await page.focus('[data-testid=run-live]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=progress][data-done="1"][data-status="running…"]');
    await axe.check(page, 'live run in progress');
    const status = page.getByRole('status').filter({ hasText: 'answered' });
    assert.equal(await status.count(), 1, 'the progress text is a status live region');
    assert.match(await status.textContent(), /1\/4 answered · 1 hit at 3 so far/);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'cancel-run',
      'starting disabled the run button: focus moved to cancel');

    release();
    await page.waitForSelector('[data-testid=error-banner]');
    await axe.check(page, 'failed run with its banner');
    const alert = page.getByRole('alert');
    assert.match(await alert.textContent(), /The live run stopped[^]*HTTP 500/);
    assert.equal(await page.evaluate(() => !!document.activeElement?.closest('[data-testid=error-banner]')), true,
      'focus moved to the banner');
    // The 500 itself is logged by the browser; nothing else is.
    assert.deepEqual(page.problems.filter((p) => !p.includes('status of 500')), []);
    await page.context().close();
  } finally {
    release();
    await dep.stop();
  }
  axe.assertNone();
});

test('the report with items open has no axe violation, wide and narrow; bars are 3:1 against their track; hit and miss carry words and symbols', { skip }, async (t) => {
  const axe = axeLog(t);
  const page = await scoredReport();
  const toggles = page.locator('[data-testid=item-toggle]');
  for (let i = 0; i < 6; i++) await toggles.nth(i).click();
  await page.waitForSelector('[data-testid=figure-summary]');
  await axe.check(page, 'report, six items open');
  await page.setViewportSize({ width: 390, height: 844 });
  await axe.check(page, 'report, six items open, narrow window');

  const marks = await markContrasts(page);
  for (const chart of ['cellbar', 'spanbar', 'group-chart']) {
    assert.ok(marks.some((m) => m.chart === chart), `${chart} marks were measured: ${JSON.stringify(marks.slice(0, 5))}`);
  }
  const weak = marks.filter((m) => m.ratio < 3);
  assert.deepEqual(weak, [], 'every bar is 3:1 or more against its track');

  // Colour is never the only signal.
  const rows = await page.locator('[data-testid=item-row]').evaluateAll((rs) => rs.map((r) => ({
    hit: r.dataset.hit,
    badge: r.querySelector('.badge.outcome').textContent,
    pips: [...r.querySelectorAll('.pip')].map((p) => [p.dataset.hit, p.textContent]),
  })));
  for (const r of rows) {
    assert.equal(r.badge, r.hit === 'true' ? 'HIT' : 'MISS');
    for (const [hit, text] of r.pips) assert.ok(text.startsWith(hit === 'true' ? '✓' : '✗'), text);
  }
  const chips = await page.locator('.page-chip.expected').allTextContents();
  assert.ok(chips.length > 0 && chips.every((c) => c.startsWith('✓')), `expected pages are marked: ${chips}`);
  const onExpected = await page.locator('[data-testid=on-expected]').evaluateAll((cs) => cs.map((c) => [c.dataset.on, c.textContent]));
  for (const [on, text] of onExpected) assert.equal(text, on === 'true' ? '✓ expected page' : '✗ off page');
  assert.deepEqual(page.problems, []);
  await page.context().close();

  // A report with unscored items shows one more card.
  const allowed = await openApp(shared.browser, shared.site.url);
  await loadBundled(allowed, 'octave-manual-figures');
  await setField(allowed, 'responses-input', capture().split('\n').slice(3).join('\n'));
  await allowed.check('[data-testid=allow-missing]');
  await allowed.click('[data-testid=score-offline]');
  await allowed.waitForSelector('[data-testid=unscored]');
  await axe.check(allowed, 'report with unscored items');
  await allowed.context().close();
  axe.assertNone();
});

test('the compare view with two reports has no axe violation, wide and narrow; gained, lost and regressed carry signs and words', { skip }, async (t) => {
  const axe = axeLog(t);
  const page = await scoredReport();
  await comparing(page);
  await page.$$eval('[data-testid=comparison] details', (ds) => ds.forEach((d) => { d.open = true; }));
  await axe.check(page, 'compare, two reports, movers open');
  await page.setViewportSize({ width: 390, height: 844 });
  await axe.check(page, 'compare, two reports, narrow window');

  const cells = await page.locator('[data-testid=compare-scope] tbody tr').evaluateAll((rs) => rs.map((r) => ({
    regressed: r.classList.contains('regressed'),
    text: r.textContent,
    delta: r.querySelector('[data-testid=delta]')?.textContent ?? null,
    gained: r.querySelector('td.gained')?.textContent ?? null,
    lost: r.querySelector('td.lost')?.textContent ?? null,
  })));
  assert.ok(cells.some((c) => c.gained && c.gained !== '0'), 'some question was gained');
  for (const c of cells.filter((x) => x.gained !== null)) {
    assert.match(c.gained, /^(0|\+\d+)$/);
    assert.match(c.lost, /^(0|−\d+)$/);
    assert.equal(c.text.includes('regressed'), c.regressed, `a regressed row says so: ${c.text}`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
  axe.assertNone();
});

test('the compare view with three reports (every run against the baseline) has no axe violation, wide and narrow; a regressed cell says so in words', { skip }, async (t) => {
  const axe = axeLog(t);
  const page = await scoredReport();
  await comparing(page);
  await page.click('[data-testid=tab-workbench]');
  await setField(page, 'responses-input', capture(2));
  await page.click('[data-testid=score-offline]');
  await page.click('[data-testid=tab-compare]');
  await page.click('[data-testid=compare-add-current]');
  await page.waitForSelector('[data-testid=compare-matrix]');
  await axe.check(page, 'compare, three reports');
  await page.setViewportSize({ width: 390, height: 844 });
  await axe.check(page, 'compare, three reports, narrow window');
  const regressed = await page.locator('[data-testid=compare-matrix] td.regressed .change').allTextContents();
  assert.ok(regressed.length > 0 && regressed.every((t) => t.endsWith(', REGRESSED')), `regressed cells say so: ${regressed}`);
  // Each report's controls are a group named by the report.
  const runs = await page.locator('[data-testid=compare-run]').evaluateAll((rs) => rs.map((r) => [r.querySelector('[data-testid=compare-run-name]').value, r.querySelector('[role=group]').getAttribute('aria-label')]));
  assert.equal(runs.length, 3);
  for (const [name, label] of runs) assert.equal(label, name);
  assert.deepEqual(page.problems, []);
  await page.context().close();
  axe.assertNone();
});

test('every view has one h1, headings in order, one main and a nav holding the view buttons', { skip }, async () => {
  const page = await scoredReport();
  await comparing(page);
  for (const view of ['workbench', 'report', 'compare', 'runs', 'document']) {
    await page.click(`[data-testid=tab-${view}]`);
    if (view === 'runs') await page.waitForSelector('[data-testid=history-kept] [data-testid=history-row]');
    // The document tools are outside main: their view hides every panel of it.
    const doc = view === 'document';
    const outline = await page.evaluate(() => {
      // Hidden views are display: none; a visually hidden heading is still in the outline.
      const shown = (el) => el.checkVisibility();
      return {
        h1: [...document.querySelectorAll('h1')].map((h) => h.textContent),
        levels: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(shown).map((h) => Number(h.tagName[1])),
        main: document.querySelectorAll('main').length,
        tabs: [...document.querySelectorAll('header nav button')].map((b) => b.dataset.testid),
        current: [...document.querySelectorAll('nav [aria-current=page]')].map((b) => b.dataset.testid),
        panel: [...document.querySelectorAll('main > section[aria-labelledby]')].filter((p) => !p.hidden)
          .map((p) => p.getAttribute('aria-labelledby')),
      };
    });
    assert.deepEqual(outline.h1, ['figeval'], `${view}: one h1`);
    assert.equal(outline.levels[0], 1, `${view}: the outline starts at the h1`);
    outline.levels.forEach((l, i) => assert.ok(i === 0 || l <= outline.levels[i - 1] + 1,
      `${view}: heading levels ${outline.levels.join(' ')} skip none`));
    assert.ok(outline.levels.filter((l) => l === 2).length >= (doc ? 1 : 2), `${view}: sections have h2 headings`);
    assert.equal(outline.main, 1, `${view}: one main`);
    assert.deepEqual(outline.tabs, ['tab-workbench', 'tab-report', 'tab-compare', 'tab-runs', 'tab-document'], `${view}: the nav holds the view buttons`);
    assert.deepEqual(outline.current, [`tab-${view}`], `${view}: its button is the current page`);
    assert.deepEqual(outline.panel, doc ? [] : [`tab-${view}`], `${view}: one view on show, named by its button`);
    assert.equal(await page.isVisible('[data-testid=doc-side]'), doc, `${view}: the document tools on show in their view only`);
  }
  await page.context().close();
});

/** What has focus, and whether a focus ring is drawn for it (on it, or on its file button). */
function focusState(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { lost: true };
    const ring = (e) => {
      const s = getComputedStyle(e);
      return s.opacity !== '0' && s.visibility !== 'hidden'
        && ((s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1) || s.boxShadow !== 'none');
    };
    const wrap = el.closest('.file-button')?.querySelector('span');
    return {
      lost: false,
      testid: el.dataset.testid || '',
      dataset: el.dataset.dataset || '',
      role: el.getAttribute('role') || '',
      tag: el.tagName,
      classes: el.className?.baseVal ?? el.className,
      visible: ring(el) || (wrap ? ring(wrap) : false),
    };
  });
}

/** Presses Tab (or Shift+Tab) until `matches(focus)`; every stop on the way shows its focus. */
async function tabTo(page, what, matches, { back = false, max = 80 } = {}) {
  const stops = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focusState(page);
    assert.ok(!f.lost, `focus was lost on the way to ${what} after ${stops.join(', ')}`);
    assert.ok(f.visible, `no visible focus on ${f.tag} ${f.testid} ${f.classes}`);
    stops.push(f.testid || f.role || f.tag);
    if (matches(f)) return stops;
  }
  throw new Error(`${what} not reached in ${max} presses: ${stops.join(', ')}`);
}

const testid = (id) => (f) => f.testid === id;

test('the keyboard alone loads a dataset, scores a pasted capture, opens a ranked window, copies the share link and compares', { skip }, async () => {
  const page = await openApp(shared.browser, shared.site.url, { permissions: ['clipboard-read', 'clipboard-write'] });
  // The view buttons come first; Enter opens a view and focus stays on its button.
  await tabTo(page, 'the report view button', testid('tab-report'));
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=no-report]', { state: 'visible' });
  assert.equal((await focusState(page)).testid, 'tab-report');
  await tabTo(page, 'the workbench button', testid('tab-workbench'), { back: true });
  await page.keyboard.press('Space');
  await page.waitForSelector('[data-testid=dataset-input]', { state: 'visible' });

  await tabTo(page, 'the bundled Octave dataset', (f) => f.dataset === 'octave-manual-figures');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=dataset-status]');

  await tabTo(page, 'the responses field', testid('responses-input'));
  await page.keyboard.insertText(capture()); // a paste
  await tabTo(page, 'score', testid('score-offline'));
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=report-view]', { state: 'visible' });
  const landed = await page.evaluate(() => [document.activeElement.tagName, !!document.activeElement.closest('#view-report')]);
  assert.deepEqual(landed, ['H2', true], 'focus moved to the report\'s first heading');

  await tabTo(page, 'copy the share link', testid('copy-share-link'));
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('[data-testid=copy-share-link]').textContent.includes('Copied'));
  const link = await page.locator('[data-testid=share-link]').inputValue();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link, 'the clipboard holds the share link');
  assert.ok(link.includes('#report='));

  const stops = await tabTo(page, 'the first item', testid('item-toggle'));
  assert.ok(stops.includes('group'), `the scrollable group table takes focus: ${stops.join(', ')}`);
  await page.keyboard.press('Enter');
  const first = page.locator('[data-testid=item-row]').first();
  await first.locator('[data-testid=ranked-window]').waitFor();
  assert.equal(await first.locator('[data-testid=item-toggle]').getAttribute('aria-expanded'), 'true');
  await tabTo(page, 'the ranked window\'s table', (f) => f.role === 'group');

  await tabTo(page, 'compare: use as before', testid('compare-as-before'), { back: true });
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=compare-view]', { state: 'visible' });
  assert.deepEqual(await page.evaluate(() => [document.activeElement.tagName, !!document.activeElement.closest('#view-compare')]),
    ['H2', true], 'focus moved to the compare view\'s first heading');
  await tabTo(page, 'after: use the current report', testid('compare-after-current'));
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=comparison]');
  assert.equal(await page.locator('[data-testid=compare-scope]').count() > 0, true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('screen readers hear each group table cell as "page hit at 3, locate: 0.9231, 12 of 13, 95% CI 0.67 to 0.99", and the chart carries the same numbers', { skip }, async () => {
  const page = await scoredReport();
  const table = await readGroupTable(page);
  const chart = await page.getByRole('img', { name: /^Rates by group:/ }).getAttribute('aria-label');
  for (const [group, cells] of Object.entries(table)) {
    for (const metric of Object.keys(SPOKEN)) {
      const { text, hits, n, ci } = cells[metric];
      const rate = text.split(' ')[0];
      const [lo, hi] = ci.split(',').map(Number);
      const name = `${SPOKEN[metric]}, ${group}: ${rate}, ${hits} of ${n}, 95% CI ${fixed2(lo)} to ${fixed2(hi)}`;
      assert.equal(await page.getByRole('cell', { name, exact: true }).count(), 1, name);
      if (metric !== 'page_hit_at_5') {
        assert.ok(chart.includes(`${name};`), `the chart says ${name}: ${chart}`);
      }
    }
  }
  // Every control has a name (axe checks the same; this reads the accessibility tree itself).
  const tree = await page.locator('body').ariaSnapshot();
  const unnamed = tree.split('\n').filter((l) => /^\s*- (button|textbox|combobox|checkbox|link|searchbox|spinbutton|tab|group)\s*(\[[^\]]*\])?\s*:?$/.test(l));
  assert.deepEqual(unnamed, [], 'unnamed controls in the accessibility tree');
  await page.context().close();
});
