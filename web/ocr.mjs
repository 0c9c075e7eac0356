// OCR in the page: tesseract.js reads scanned pages (canvases pdfview.mjs drew) in up to
// `WORKERS` workers of its own, one page each at a time. Imported by pdfview.mjs only when a page that is read has no text layer, so none of
// it loads before. Every file comes from dist/ocr/ (web/index.html copies them from npm's
// `tesseract.js`, `tesseract.js-core` and `@tesseract.js-data/eng`): the worker script, the
// LSTM cores (plain, SIMD, relaxed SIMD: the worker picks the one the browser runs) and the
// English model. Nothing is fetched from elsewhere: the three paths are set here, and the
// worker starts from its file (`workerBlobURL: false`), since the page's CSP has no `blob:`.

import Tesseract from './ocr/tesseract.esm.min.js';

const here = (path) => new URL(path, import.meta.url).href;

/**
 * A word with no letter or digit and a confidence below this is a speck on the scan, not text:
 * the rule of `crates/pagetext/src/ocr.rs` (`SPECK_CONFIDENCE`), so a speck before a caption
 * does not hide it here either.
 */
const SPECK_CONFIDENCE = 10;

/**
 * How many tesseract.js workers read at once: one per core the browser reports, at most 4
 * (each holds its own engine and model, about 40 MB).
 */
export const WORKERS = Math.max(1, Math.min(4, Number(globalThis.navigator?.hardwareConcurrency) || 1));

let workers = []; // promises of started workers
const idle = []; // started workers free to read
const waiting = []; // resolvers of reads waiting for a free worker

function startOne() {
  return Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    workerPath: here('./ocr/worker.min.js'),
    corePath: here('./ocr/core'),
    langPath: here('./ocr/lang'),
    gzip: true,
    cacheMethod: 'none',
    workerBlobURL: false,
  }).then(async (w) => {
    // The page's layout found first (psm 3), as the command line (`crates/pagetext`) reads: one
    // block of text (psm 6, the library's default) puts marks of a plot beside a caption on the
    // caption's line, so it no longer starts the line and is not found (the Octave excerpt's
    // Figures 15.3 and 15.4). psm 3 needs the page's resolution, which `read` gives each page.
    // Its layout analysis reports what it found (`Detected 27 diacritics`) on stderr, which the
    // worker turns into console errors: those reports go nowhere, as the command line's do.
    await w.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO, debug_file: '/dev/null' });
    return w;
  }).catch((e) => {
    throw new Error(`the OCR engine (tesseract.js) could not start: ${e && e.message ? e.message : e}`);
  });
}

/** A free worker: an idle one, a new one while there are fewer than WORKERS, or the next freed. */
async function acquire() {
  if (idle.length) return idle.pop();
  if (workers.length < WORKERS) {
    const started = startOne();
    workers.push(started);
    try {
      return await started;
    } catch (e) {
      workers = workers.filter((w) => w !== started);
      throw e;
    }
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function release(w) {
  const next = waiting.shift();
  if (next) next(w); else idle.push(w);
}

/**
 * The page's words and mean word confidence from tesseract's TSV, as `pagetext`'s `parse_tsv`
 * makes them: a line of the page per line, a blank line between blocks, specks left out.
 */
export function parseTsv(tsv) {
  let text = '';
  let lineKey = null;
  let sum = 0;
  let words = 0;
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    if (cols.length < 12 || cols[0] !== '5') continue;
    const word = cols[11].trim();
    const parsed = Number.parseFloat(cols[10]);
    const conf = Number.isFinite(parsed) ? parsed : -1;
    const speck = conf < SPECK_CONFIDENCE && !/[\p{L}\p{N}]/u.test(word);
    if (!word || speck) continue;
    const key = [cols[2], cols[3], cols[4]];
    if (lineKey) {
      if (lineKey.join() === key.join()) text += ' ';
      else text += lineKey[0] === key[0] ? '\n' : '\n\n';
    }
    lineKey = key;
    text += word;
    if (conf >= 0) { sum += conf; words++; }
  }
  if (text) text += '\n';
  return { text, confidence: words ? sum / words : 0 };
}

/**
 * Reads a page drawn at `dpi` dots per inch (a canvas): `{ text, confidence }`, confidence 0 to
 * 100. `onTurn` is called when a started worker takes it. A canvas carries no resolution, and
 * tesseract's guess of it (253 to 395 dpi on the Octave excerpt drawn at 200) makes psm 3 lose
 * a caption beside its plot: the page's own is given.
 */
export async function read(canvas, onTurn = () => {}, dpi = 200) {
  const w = await acquire();
  onTurn();
  try {
    await w.setParameters({ user_defined_dpi: String(Math.round(dpi)) });
    const { data } = await w.recognize(canvas, {}, { text: false, tsv: true });
    return parseTsv(data.tsv || '');
  } finally {
    release(w);
  }
}
