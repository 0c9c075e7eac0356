// Every table of the report and compare views fits its card or scrolls inside it, in a
// 1280-pixel and a 390-pixel wide window, with the Octave eval's figures-off and figures-on
// reports (from refsearch and `figeval run`) open: at 1280 px no table needs scrolling, and at
// either width no cell is cut off and no comparison cell wraps. The app's header comes first,
// and the document tools are a view of their own.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  OCTAVE_PDF, missing, appHarness, figuresReports,
} from './support.mjs';
import { existsSync } from 'node:fs';

const skip = missing({ figeval: true, refsearch: true }) || false;
const h = appHarness(skip);
// The demo's pair: the same refsearch command but for --figures.
const reports = figuresReports(skip);

/**
 * Problems with the visible tables under `root`, as sentences. A table must sit in a
 * `.table-wrap` that lies inside its card; no cell's content may overflow the cell; when the
 * window is `wide`, the wrapper must not need to scroll (every cell inside the card); otherwise
 * a wrapper that scrolls must be able to bring its last cells into view. The page itself must
 * never scroll sideways.
 */
function tableProblems(page, root, wide) {
  return page.$eval(root, (el, isWide) => {
    const problems = [];
    const box = (e) => e.getBoundingClientRect();
    const tables = [...el.querySelectorAll('table')].filter((t) => t.checkVisibility());
    if (tables.length === 0) problems.push('no visible table');
    tables.forEach((table, i) => {
      const name = `${table.className || 'table'} #${i + 1}`;
      const wrap = table.closest('.table-wrap');
      const card = table.closest('.card');
      if (!wrap || !card) {
        problems.push(`${name}: not in a .table-wrap inside a .card`);
        return;
      }
      const [w, c] = [box(wrap), box(card)];
      if (w.left < c.left - 1 || w.right > c.right + 1) {
        problems.push(`${name}: its scroll container (${w.left}–${w.right}) leaves its card (${c.left}–${c.right})`);
      }
      const cells = [...table.querySelectorAll('th, td')];
      for (const cell of cells) {
        if (cell.scrollWidth > cell.clientWidth + 1) {
          problems.push(`${name}: the cell "${cell.textContent.trim().slice(0, 30)}" cuts its content (${cell.scrollWidth} > ${cell.clientWidth})`);
        }
      }
      const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      if (isWide && scrolls) {
        const cut = cells.filter((cell) => box(cell).right > w.right + 1);
        problems.push(`${name}: needs ${wrap.scrollWidth - wrap.clientWidth} px of scrolling; ${cut.length} cells are cut off, the first "${cut[0]?.textContent.trim().slice(0, 30)}"`);
      }
      if (scrolls) {
        if (!['auto', 'scroll'].includes(getComputedStyle(wrap).overflowX)) {
          problems.push(`${name}: overflows a container that does not scroll`);
        }
        wrap.scrollLeft = wrap.scrollWidth;
        const end = box(wrap).right;
        const unreachable = cells.filter((cell) => box(cell).right > end + 1);
        if (unreachable.length) problems.push(`${name}: ${unreachable.length} cells stay cut off when scrolled to the end`);
        wrap.scrollLeft = 0;
      }
    });
    const page = document.documentElement;
    if (page.scrollWidth > window.innerWidth) {
      problems.push(`the page scrolls sideways (${page.scrollWidth} px in a ${window.innerWidth} px window)`);
    }
    return problems;
  }, wide);
}

async function openAt(width) {
  const context = await h.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(h.site.url);
  await page.waitForSelector('[data-testid=dataset-input]', { state: 'attached', timeout: 30_000 });
  return page;
}

for (const width of [1280, 390]) {
  const wide = width >= 1280;

  test(`the report view's tables fit their cards at ${width} px, ranked windows open`, { skip, timeout: 300_000 }, async () => {
    const page = await openAt(width);
    await page.setInputFiles('[data-testid=report-input]', reports.on);
    await page.waitForSelector('[data-testid=group-table]');
    const toggles = page.locator('[data-testid=item-toggle]');
    for (let i = 0; i < 4; i++) await toggles.nth(i).click();
    assert.equal(await page.locator('[data-testid=ranked-window]').count(), 4);
    assert.deepEqual(await tableProblems(page, '[data-testid=report-view]', wide), []);
    // The chart is drawn for its card's width, and its text keeps its 11 px.
    const chart = () => page.$eval('[data-testid=group-chart]', (f) => {
      const svg = f.querySelector('svg');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return {
        figure: f.clientWidth,
        drawn: Math.round(svg.getBoundingClientRect().width),
        font: [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale),
      };
    });
    await page.waitForFunction(() => {
      const f = document.querySelector('[data-testid=group-chart]');
      return Math.abs(f.querySelector('svg').getBoundingClientRect().width - f.clientWidth) <= 1;
    }, null, { timeout: 10_000 }).catch(() => {});
    const c = await chart();
    assert.ok(Math.abs(c.drawn - c.figure) <= 1, `the chart is ${c.drawn} px wide in a ${c.figure} px card`);
    assert.ok(c.font.length > 0 && c.font.every((px) => px >= 10.5), `every label at 11 px or so: ${c.font.map((px) => px.toFixed(1))}`);
    await page.context().close();
  });

  test(`the compare view's tables fit their cards at ${width} px, before and after swapped too`, { skip, timeout: 300_000 }, async () => {
    const page = await openAt(width);
    await page.click('[data-testid=tab-compare]');
    await page.setInputFiles('[data-testid=compare-before-input]', reports.off);
    await page.setInputFiles('[data-testid=compare-after-input]', reports.on);
    await page.waitForSelector('[data-testid=comparison]');
    assert.equal(await page.locator('[data-testid=compare-scope]').count(), 4);
    const tops = await page.locator('[data-testid=compare-scope]').evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)));
    assert.ok(tops.every((t, i) => i === 0 || t > tops[i - 1]), `one scope to a row: ${tops}`);
    assert.deepEqual(await tableProblems(page, '[data-testid=compare-view]', wide), [], 'figures off → on');
    // Every cell of the comparison holds its text on one line (rate, hits and interval).
    const wrapped = await page.$$eval('[data-testid=compare-scope] td', (tds) => tds.filter((td) => {
      const r = document.createRange();
      r.selectNodeContents(td);
      // Text of two sizes sits on one line a few pixels apart; a second line is a line lower.
      const tops = [...r.getClientRects()].map((x) => x.top);
      return Math.max(...tops) - Math.min(...tops) > 10;
    }).map((td) => td.textContent));
    assert.deepEqual(wrapped, [], 'no cell wraps');
    // A question that changed, open: its two ranked windows side by side fit too.
    await page.locator('[data-testid=changed-question] summary').first().click();
    assert.equal(await page.locator('[data-testid=changed-question][open] [data-testid=ranked-window]').count(), 2);
    assert.deepEqual(await tableProblems(page, '[data-testid=changed-question][open]', wide), [], 'the windows side by side');
    await page.locator('[data-testid=changed-question] summary').first().click();
    // Swapped, figures on → off regresses: the regressed rows must fit too.
    await page.click('[data-testid=compare-swap]');
    assert.ok(await page.locator('tr.regressed').count() > 0, 'the swapped comparison has regressed rows');
    assert.deepEqual(await tableProblems(page, '[data-testid=compare-view]', wide), [], 'figures on → off');
    await page.context().close();
  });

  test(`the app's header comes first at ${width} px, and opening a PDF leaves the report where it is`, { skip: skip || (!existsSync(OCTAVE_PDF) && `no manual at ${OCTAVE_PDF}`), timeout: 120_000 }, async () => {
    const page = await openAt(width);
    await page.setInputFiles('[data-testid=report-input]', reports.on);
    await page.waitForSelector('[data-testid=group-table]');
    const where = () => page.evaluate(() => {
      const top = (q) => { const e = document.querySelector(q); return e && e.offsetParent !== null ? Math.round(e.getBoundingClientRect().top) : null; };
      return { header: top('.topbar'), report: top('[data-testid=report-view]'), tools: top('[data-testid=doc-side]'), strip: top('[data-testid=pdf-panel]') };
    });
    const before = await where();
    assert.equal(before.header, 0, 'the header is at the top');
    assert.equal(before.tools, null, 'the document tools are a view, not on show');
    await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
    await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
    assert.deepEqual(await where(), before, 'the PDF open, the header and the report have not moved');
    // The Document view: the strip right under the header, the report out of the way.
    await page.click('[data-testid=tab-document]');
    const doc = await where();
    assert.equal(doc.header, 0);
    assert.equal(doc.report, null, 'the report gives way to the document tools');
    const headerBottom = await page.$eval('.topbar', (e) => Math.round(e.getBoundingClientRect().bottom));
    assert.ok(doc.strip >= headerBottom && doc.strip < headerBottom + 40, `the strip (${doc.strip}) is under the header (${headerBottom})`);
    await page.click('[data-testid=tab-report]');
    assert.deepEqual(await where(), before, 'back to the report, where it was');
    await page.context().close();
  });
}
