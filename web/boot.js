// Loads the app's WebAssembly. Kept as a file (not inline) so the page's
// Content-Security-Policy can say script-src 'self'.
import init from './figeval-web.js';

init({ module_or_path: new URL('./figeval-web_bg.wasm', import.meta.url) });

// The PDF viewer (web/pdfview.mjs, on pdf.js and its worker) loads only when a PDF is opened
// from the app's document strip: a file picked or dropped, or a URL.
let viewer = null;
const load = () => (viewer ??= import('./pdfview.mjs').catch((e) => { viewer = null; throw e; }));
const inStrip = (e) => e.target instanceof Element && e.target.closest('[data-testid=pdf-panel]');
const open = (how, what) => load().then((v) => v[how](what), (e) => {
  const s = document.querySelector('[data-testid=pdf-status]');
  if (s) s.textContent = `The PDF viewer could not be loaded: ${e.message}`;
});
globalThis.figevalRenderer = load;
globalThis.figevalOpenPdfUrl = (url) => open('openUrl', url);
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
