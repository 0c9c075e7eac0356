// Loads the app's WebAssembly. Kept as a file (not inline) so the page's
// Content-Security-Policy can say script-src 'self'.
import init, { work_report, work_banner } from './figeval-web.js';

// Share links are raw DEFLATE (contract §10.2), made and opened by the browser's own
// (De)CompressionStream so the app's WebAssembly carries no codec (src/browser.rs). Inflating
// stops past `limit` bytes (null): the core's limit, so a DEFLATE bomb is refused.
const through = (bytes, stream) => new Blob([bytes]).stream().pipeThrough(stream);
globalThis.figevalDeflate = async (bytes) =>
  new Uint8Array(await new Response(through(bytes, new CompressionStream('deflate-raw'))).arrayBuffer());
globalThis.figevalInflate = async (bytes, limit) => {
  const reader = through(bytes, new DecompressionStream('deflate-raw')).getReader();
  const parts = [];
  let n = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    n += r.value.length;
    if (n > limit) { reader.cancel(); return null; }
    parts.push(r.value);
  }
  const out = new Uint8Array(n);
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
};

init({ module_or_path: new URL('./figeval-web_bg.wasm', import.meta.url) });

// The PDF viewer (web/pdfview.mjs, on pdf.js and its worker) loads only when a PDF is opened
// from the document strip (index.html): a file picked or dropped, or a URL. A link's
// `pdf=<url>` (`#report=…&pdf=…`) is offered, and fetched only when the user says yes.
let viewer = null;
const load = () => (viewer ??= import('./pdfview.mjs').catch((e) => { viewer = null; throw e; }));
const inStrip = (e) => e.target instanceof Element && e.target.closest('[data-testid=pdf-panel]');
// The last PDF opened here is kept in this browser (pdfview.mjs writes it to IndexedDB and its
// name to localStorage): offered again at start, forgotten with one click.
const LAST = 'figeval.lastPdf';
const reopen = document.querySelector('[data-testid=pdf-reopen]');
try {
  const name = localStorage.getItem(LAST);
  if (name) { reopen.querySelector('[data-pdf-reopen-name]').textContent = name; reopen.hidden = false; }
} catch { /* no storage: nothing to offer */ }
document.addEventListener('click', (e) => {
  const how = e.target instanceof Element && e.target.closest('[data-pdf-reopen-action]')?.dataset.pdfReopenAction;
  if (!how) return;
  reopen.hidden = true;
  if (how === 'reopen') return open('reopenLast');
  try { localStorage.removeItem(LAST); } catch { /* nothing kept */ }
  indexedDB.deleteDatabase('figeval');
});
const open = (how, what) => load().then((v) => {
  reopen.hidden = true;
  const opened = v[how](what); // the strip says `loading` from here on
  // A running document module hears of it now: the stopped read is no failure (web/doc).
  if (doc) withDoc((m) => m.pdf_changed());
  return opened;
}, (e) => {
  const s = document.querySelector('[data-testid=pdf-status]');
  if (s) s.textContent = `The PDF viewer could not be loaded: ${e.message}`;
}).then(() => (doc || document.querySelector('[data-testid=pdf-panel]').dataset.status === 'open')
  && withDoc((m) => m.pdf_changed()));
globalThis.figevalRenderer = load;
// The modules loaded on demand (web/README.md): dist/NAME/figeval-NAME.js and its WebAssembly.
const module = (name) => import(`./${name}/figeval-${name}.js`).then((m) => m.default({
  module_or_path: new URL(`./${name}/figeval-${name}_bg.wasm`, import.meta.url) }).then(() => m));
// The document module (web/doc) and its bridge: web/README.md, "The document module".
let doc;
const withDoc = (f) => (doc ??= module('doc')).then(f);
globalThis.figevalDoc = { announce(text, what, note, hits) { Object.assign(this, { text, what, note, hits }); } };
document.addEventListener('click', (e) => {
  const v = e.target instanceof Element && e.target.closest('[data-doc-view]')?.dataset.docView;
  if (!v) return;
  document.querySelector('#tab-document:not([aria-current])')?.click(); // the view on show
  withDoc((m) => m.show(v));
});
// The connector module (web/connect): loaded when another search API is asked for; while a
// connector is in use it sets globalThis.figevalConnect, which the app's live run asks through.
let connect;
document.addEventListener('click', (e) => {
  if (!(e.target instanceof Element && e.target.closest('[data-connect-open]'))) return;
  (connect ??= module('connect')).then((m) => m.show(), (e) => {
    connect = null;
    const s = document.querySelector('[data-testid=connect-status]');
    s.textContent = `The connector module could not be loaded: ${e.message}`;
    s.hidden = false;
  });
});
// The workbench module (web/work): the dataset, the live run and offline scoring, loaded while
// the app says it is wanted (its view is on show, or the Document view checks its dataset). The
// app says so, and what the check reads, through `shown`; the workbench hands its reports and
// banner messages to the app, which asks it for a report's files by key (web/README.md).
let work;
globalThis.figevalWork = {
  shown(load, here, corpus) {
    Object.assign(this, { here, corpus });
    if (load || work) (work ??= module('work')).then((m) => m.update(), (e) => {
      work = null;
      work_banner('The workbench could not be loaded', e.message, '', 0);
    });
  },
  file: (key, which) => (work ?? Promise.reject(new Error('the workbench is not loaded'))).then((m) => m.file(key, which)),
  report: work_report,
  banner: work_banner,
};
// The runs module (web/runs): the comparison's tables, ranking metrics and items × runs, in the
// Compare view, loaded once two reports are compared; the app announces their names and JSON
// (none: fewer than two) after each change, and the module renders into the view's elements.
let runs;
globalThis.figevalRuns = {
  announce(names, reports) {
    Object.assign(this, { names, reports });
    if (names.length || runs) (runs ??= module('runs')).then((m) => m.update());
  },
};
const offer = () => {
  const m = /[#&]pdf=([^&]*)/.exec(location.hash);
  let url = '';
  try { url = m ? decodeURIComponent(m[1]).trim() : ''; } catch { url = ''; }
  const box = document.querySelector('[data-testid=pdf-offer]');
  box.querySelector('[data-pdf-offer-url]').textContent = url;
  box.dataset.url = url;
  box.hidden = !url;
};
offer();
addEventListener('hashchange', offer);
document.addEventListener('click', (e) => {
  const box = e.target instanceof Element && e.target.closest('[data-testid=pdf-offer]');
  if (!box || !e.target.closest('button')) return;
  box.hidden = true;
  if (e.target.closest('[data-testid=pdf-offer-load]')) open('openUrl', box.dataset.url);
});
document.addEventListener('change', (e) => {
  if (!e.target.matches?.('[data-testid=pdf-input]')) return;
  const file = e.target.files[0];
  e.target.value = '';
  if (file) open('openFile', file);
});
document.addEventListener('submit', (e) => {
  if (!e.target.matches?.('[data-pdf-url-form]')) return;
  e.preventDefault();
  const url = e.target.querySelector('[data-testid=pdf-url]').value.trim();
  if (url) open('openUrl', url);
});
document.addEventListener('dragover', (e) => { if (inStrip(e)) e.preventDefault(); });
document.addEventListener('drop', (e) => {
  if (!inStrip(e)) return;
  e.preventDefault();
  const file = e.dataTransfer?.files[0];
  if (file) open('openFile', file);
});
