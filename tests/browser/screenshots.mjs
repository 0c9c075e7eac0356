// The README's screenshots, taken from the app's release build (dist/, `trunk build --release`)
// rather than by hand: the Octave eval's report with figure chunks on (its headline, group
// table, chart and ranking, an item's ranked window open), and the compare view of figures off
// → on leading with its finding, and one question that changed opened to its ranked windows
// before and after side by side (with the manual's thumbnails), each in a 1280 and a 390 pixel
// wide window. The two reports
// come from real runs of `figeval run` against refsearch over the Octave manual, as the demo
// makes them. Not a test: run it after a change to the page, and commit the pictures.
//
//   trunk build --release --offline && cargo build --bins
//   FIGEVAL_BIN=target/debug/figeval REFSEARCH_BIN=target/debug/refsearch \
//     node tests/browser/screenshots.mjs
//
// Writes docs/screenshots/{report,compare,compare-item}-{1280,390}.png.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  REPO, OCTAVE_DATASET, OCTAVE_PDF, missing, serveDist, launch, startRefsearch, figevalReport, scratch,
} from './support.mjs';

const why = missing({ figeval: true, refsearch: true, manual: true });
if (why) {
  console.error(`screenshots: ${why}`);
  process.exit(2);
}
const out = path.join(REPO, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const tmp = scratch();
const reports = {};
for (const figures of ['off', 'on']) {
  const dep = await startRefsearch([], { figures });
  try {
    reports[figures] = path.join(tmp.dir, `octave-figures-${figures}.json`);
    await figevalReport(['run', '--base-url', dep.url, '--dataset', OCTAVE_DATASET, '--out', reports[figures]]);
  } finally {
    await dep.stop();
  }
}

/** A picture of `selector`'s first `height` pixels (the page scrolled to it). */
async function shoot(page, selector, file, height) {
  const box = await page.locator(selector).boundingBox(); // relative to the window
  const top = box.y + await page.evaluate(() => scrollY);
  const clip = { x: 0, y: Math.max(0, top - 8), width: page.viewportSize().width, height: Math.min(height, box.height + 16) };
  await page.screenshot({ path: path.join(out, file), clip, fullPage: true });
  console.log(`screenshots: ${file} (${clip.width}×${Math.round(clip.height)})`);
}

const site = await serveDist();
const browser = await launch();
try {
  for (const width of [1280, 390]) {
    // bypassCSP: the picture's own style, which unpins the app's header so that it is not
    // drawn over the middle of a long picture (the page's CSP forbids inline style).
    const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(site.url);
    await page.addStyleTag({ content: '.topbar { position: static !important; }' });
    await page.waitForSelector('[data-testid=dataset-input]', { state: 'attached', timeout: 30_000 });
    await page.setInputFiles('[data-testid=report-input]', reports.on);
    await page.waitForSelector('[data-testid=group-table]');
    await page.locator('[data-testid=item-toggle]').first().click();
    await page.waitForSelector('[data-testid=ranked-window]');
    // The chart is drawn for its card once measured.
    await page.waitForFunction(() => {
      const f = document.querySelector('[data-testid=group-chart]');
      return f && Math.abs(f.querySelector('svg').getBoundingClientRect().width - f.clientWidth) <= 1;
    });
    await shoot(page, '[data-testid=report-view]', `report-${width}.png`, width >= 1280 ? 1500 : 2400);

    await page.click('[data-testid=tab-compare]');
    await page.setInputFiles('[data-testid=compare-before-input]', reports.off);
    await page.setInputFiles('[data-testid=compare-after-input]', reports.on);
    await page.waitForSelector('[data-testid=comparison]');
    await shoot(page, '[data-testid=compare-view]', `compare-${width}.png`, width >= 1280 ? 1300 : 2400);

    // A question that changed, open: its ranked windows before and after, side by side, with
    // the manual's thumbnails.
    await page.setInputFiles('[data-testid=pdf-input]', OCTAVE_PDF);
    await page.waitForSelector('[data-testid=pdf-panel][data-status=open]', { state: 'attached', timeout: 60_000 });
    const item = page.locator('[data-testid=changed-question]').first();
    await item.locator('summary').click();
    await item.scrollIntoViewIfNeeded();
    // Thumbnails are drawn as they are scrolled to: scroll through the picture's height, a
    // window at a time, and wait at each step for the thumbnails in view.
    const height = width >= 1280 ? 1000 : 2400;
    const top = await item.evaluate((e) => e.getBoundingClientRect().top + scrollY);
    for (let y = top; y < top + height; y += 800) {
      await page.evaluate((to) => scrollTo(0, to), y);
      await page.waitForFunction(() => {
        const imgs = [...document.querySelectorAll('[data-testid=changed-question][open] img[data-thumb]')]
          .filter((i) => { const r = i.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
        return imgs.every((i) => i.dataset.rendered === i.dataset.thumb);
      }, null, { timeout: 60_000 });
    }
    await shoot(page, '[data-testid=changed-question][open]', `compare-item-${width}.png`, height);
    await context.close();
  }
} finally {
  await browser.close();
  await site.stop();
  tmp.remove();
}
