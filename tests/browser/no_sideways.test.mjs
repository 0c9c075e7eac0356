// The page never scrolls sideways, at 320, 390, 768 and 1280 px, in every view and state: the
// workbench with its Deployment card, a report with ranked windows open, compare with three
// reports and with two (a changed question's windows open), the Document view with the Octave
// manual open, and the editor with ten items. Wide tables scroll inside their own frame. On a
// phone a ranked window shows each match's rank, cited pages, kind and verdict without any
// scrolling.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  OCTAVE_PDF, missing, appHarness, figuresReports, showView, showDocument,
} from './support.mjs';

const skip = missing({ figeval: true, refsearch: true }) || false;
const noPdf = !existsSync(OCTAVE_PDF) && `no manual at ${OCTAVE_PDF}`;
const h = appHarness(skip);
const reports = figuresReports(skip);

/** A third run for the matrix: the figures-on report under another name (written once). */
function again() {
  if (!reports.again) {
    const third = JSON.parse(readFileSync(reports.on, 'utf8'));
    third.run = { ...third.run, name: 'figures on, again' };
    reports.again = `${reports.dir}/octave-again.json`;
    writeFileSync(reports.again, JSON.stringify(third));
  }
  return reports.again;
}

/**
 * How far the page reaches past its window, as a sentence naming the elements that stick out
 * (the innermost few), or '' when the page's scroll width is its window's width.
 */
function sideways(page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const w = window.innerWidth;
    if (doc.scrollWidth <= w) return '';
    const out = [...document.body.querySelectorAll('*')].filter((e) => {
      if (!e.checkVisibility()) return false;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.right > w + 1 && !e.parentElement?.closest('.table-wrap');
    });
    // The outermost (whose parent stays inside) and the innermost (no sticking-out descendant).
    const outer = out.filter((e) => !out.includes(e.parentElement));
    const inner = out.filter((e) => !out.some((o) => o !== e && e.contains(o)));
    const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.dataset.testid ? `[${e.dataset.testid}]` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ').join('.')}` : ''} to ${Math.round(e.getBoundingClientRect().right)}`;
    return `the page is ${doc.scrollWidth} px wide in a ${w} px window; sticking out: ${outer.slice(0, 4).map(name).join(', ')}; inside them ${inner.slice(0, 4).map(name).join(', ')}`;
  });
}

async function assertFits(page, where) {
  // Layout settles after a frame or two (charts are drawn for their card's width).
  await page.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, null, { timeout: 3_000 }).catch(() => {});
  assert.equal(await sideways(page), '', where);
}

async function openAt(width) {
  const context = await h.browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.goto(h.site.url);
  await page.waitForSelector('[data-testid=dataset-input]', { state: 'attached', timeout: 30_000 });
  return page;
}

for (const width of [320, 390, 768, 1280]) {
  test(`the workbench, a report and compare never scroll sideways at ${width} px`, { skip, timeout: 300_000 }, async () => {
    const page = await openAt(width);
    await page.waitForSelector('[data-testid=base-url]', { state: 'visible' });
    await assertFits(page, 'the workbench with its Deployment card');

    await page.setInputFiles('[data-testid=report-input]', reports.on);
    await page.waitForSelector('[data-testid=group-table]');
    await assertFits(page, 'the report');
    const toggles = page.locator('[data-testid=item-toggle]');
    for (let i = 0; i < 4; i++) await toggles.nth(i).click();
    assert.equal(await page.locator('[data-testid=ranked-window]').count(), 4);
    await assertFits(page, 'the report with four ranked windows open');
    if (width <= 390) {
      // On a phone: rank, cited pages, kind and verdict of every match lie inside the window's
      // frame as it first shows, with no scrolling.
      const cut = await page.$$eval('[data-testid=ranked-window] [data-testid=window-row]', (rows) => rows.flatMap((row) => {
        const frame = row.closest('.table-wrap').getBoundingClientRect();
        return ['rank', 'pages', 'kind', 'verdict'].flatMap((col) => {
          const cell = row.querySelector(`[data-col=${col}]`);
          if (!cell) return [`rank ${row.dataset.rank}: no ${col} cell`];
          const r = cell.getBoundingClientRect();
          return r.left >= frame.left - 1 && r.right <= frame.right + 1 ? [] : [`rank ${row.dataset.rank}: ${col} at ${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(frame.left)}–${Math.round(frame.right)}`];
        });
      }));
      assert.deepEqual(cut, [], 'a ranked window on a phone');
    }

    await showView(page, 'compare');
    await page.setInputFiles('[data-testid=compare-before-input]', reports.off);
    await page.setInputFiles('[data-testid=compare-after-input]', reports.on);
    await page.waitForSelector('[data-testid=comparison]');
    await page.locator('[data-testid=changed-question] summary').first().click();
    assert.equal(await page.locator('[data-testid=changed-question][open] [data-testid=ranked-window]').count(), 2);
    await assertFits(page, 'compare, a changed question open');
    await page.setInputFiles('[data-testid=compare-add-input]', again());
    await page.waitForSelector('[data-testid=compare-matrix]');
    await assertFits(page, 'compare with three reports');
    await page.context().close();
  });

  test(`the Document view and the editor with ten items never scroll sideways at ${width} px`, { skip: skip || noPdf, timeout: 300_000 }, async () => {
    const page = await openAt(width);
    await showDocument(page);
    await assertFits(page, 'the Document view, no PDF');
    await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
    await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
    await assertFits(page, 'the Document view, the manual open');
    await page.click('[data-testid=tab-editor]');
    await page.waitForSelector('[data-testid=editor-panel]', { state: 'visible', timeout: 30_000 });
    for (let i = 0; i < 10; i++) await page.click('[data-testid=editor-add-item]');
    assert.equal(await page.locator('[data-testid=editor-item]').count(), 10);
    await assertFits(page, 'the editor with ten items');
    await page.context().close();
  });
}
