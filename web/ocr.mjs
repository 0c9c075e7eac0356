// OCR in the page: tesseract.js reads a scanned page (a canvas pdfview.mjs drew) in its own
// worker. Imported by pdfview.mjs only when a page that is read has no text layer, so none of
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

let worker = null;

function start() {
  worker ??= Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    workerPath: here('./ocr/worker.min.js'),
    corePath: here('./ocr/core'),
    langPath: here('./ocr/lang'),
    gzip: true,
    cacheMethod: 'none',
    workerBlobURL: false,
  }).catch((e) => {
    worker = null;
    throw new Error(`the OCR engine (tesseract.js) could not start: ${e && e.message ? e.message : e}`);
  });
  return worker;
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

/** Reads a drawn page (a canvas): `{ text, confidence }`, confidence 0 to 100. */
export async function read(canvas) {
  const starting = start();
  const w = await starting;
  // Stopped meanwhile (a page past its time limit): this worker is being terminated.
  if (worker !== starting) throw new Error('the OCR engine was stopped');
  const { data } = await w.recognize(canvas, {}, { text: false, tsv: true });
  return parseTsv(data.tsv || '');
}

/** Stops the worker (it starts again when a page is read). */
export async function stop() {
  const w = worker;
  worker = null;
  if (w) await (await w.catch(() => null))?.terminate();
}
