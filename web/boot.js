// Loads the app's WebAssembly. Kept as a file (not inline) so the page's
// Content-Security-Policy can say script-src 'self'.
import init, { work_report, work_banner, runs_current, runs_compared, app_session, app_pushed, same_file } from './figeval-web.js';

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

const ready = init({ module_or_path: new URL('./figeval-web_bg.wasm', import.meta.url) });
// Which open PDF a dataset's or a match's path names is the core's rule (whole trailing path
// components): the PDF viewer asks the app's WebAssembly.
ready.then(() => { globalThis.figevalSameFile = same_file; });

// The team server's API (contract §15.5), relative to the page so a path prefix keeps working:
// [status, text, content type]. A run's report is split off in JS, whose JSON is fast.
globalThis.figevalApi = (method, path, body) => fetch(path, {
  method, body, headers: body === undefined ? {} : { 'content-type': 'application/json' },
}).then(async (r) => [r.status, await r.text(), r.headers.get('content-type') ?? '']);
// Whether figeval serve serves the page, and its session (`GET api/session`; '' for no server):
// asked at start and after a sign-in or out, told to the app and to the runs module.
globalThis.figevalServer = {
  text: null,
  // Where the proxy to its deployments answers (§15.7): `PROXY + NAME` is a base URL whose
  // `/search` the live run asks, on this origin, with the session cookie.
  proxy: new URL('api/deployments/', document.baseURI).href,
  ask() {
    this.asked = figevalApi('GET', 'api/session').then(([s, t, type]) => (s === 200 && type.includes('json') ? t : ''), () => '')
      .then((t) => {
        this.text = t;
        ready.then(() => app_session(t));
        if (runs) withRuns((m) => m.update());
        dispatchEvent(new Event('figeval-session'));
      });
    return this.asked;
  },
  // The deployments it proxies, as `GET api/deployments` lists them (its JSON), or '' when the
  // page is not served by figeval serve or may not list them.
  deployments() {
    return (this.asked ?? this.ask()).then(() => (this.text ? figevalApi('GET', 'api/deployments') : [0]))
      .then(([s, t]) => (s === 200 ? t : ''), () => '');
  },
};
globalThis.figevalRun = async (id) => {
  const got = await figevalApi('GET', `api/runs/${encodeURIComponent(id)}`);
  if (got[0] !== 200 || !got[2].includes('json')) return got;
  const { report, ...run } = JSON.parse(got[1]);
  return [200, JSON.stringify(run), got[2], JSON.stringify(report)];
};
// The last 50 reports made or opened here, kept in this browser only (IndexedDB `figeval-runs`:
// `text` the report's JSON, `meta` its name, when it was kept and what the runs module read of
// it), keyed by a hash of the text, so a report opened twice is kept once.
const done = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
let keptDb;
const kept = (mode, f) => (keptDb ??= done(Object.assign(indexedDB.open('figeval-runs', 1), {
  onupgradeneeded: (e) => {
    e.target.result.createObjectStore('text');
    e.target.result.createObjectStore('meta', { keyPath: 'id' }).createIndex('at', 'at');
  },
}))).then((db) => {
  const t = db.transaction(['text', 'meta'], mode);
  const out = f(t.objectStore('text'), t.objectStore('meta'));
  return new Promise((ok, no) => { t.oncomplete = () => ok(out?.result); t.onabort = () => no(t.error); });
});
const hash = (s) => { // cyrb53: enough to tell reports apart, not a secret
  let a = 0xdeadbeef, b = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); a = Math.imul(a ^ c, 2654435761); b = Math.imul(b ^ c, 1597334677); }
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return (4294967296 * (2097151 & b) + (a >>> 0)).toString(36);
};
globalThis.figevalKept = {
  keep: (name, text) => kept('readwrite', (texts, metas) => {
    const id = hash(text);
    texts.put(text, id);
    metas.get(id).onsuccess = (e) => {
      metas.put({ ...e.target.result, id, name, at: Date.now() });
      metas.index('at').getAllKeys().onsuccess = (k) => k.target.result.slice(0, -50).forEach((old) => {
        texts.delete(old);
        metas.delete(old);
      });
    };
  }).catch(() => {}), // a browser that refuses to store keeps nothing
  list: () => kept('readonly', (_, metas) => metas.getAll()),
  text: (id) => kept('readonly', (texts) => texts.get(id)),
  facts: (id, facts) => kept('readwrite', (_, metas) => {
    metas.get(id).onsuccess = (e) => e.target.result && metas.put({ ...e.target.result, facts });
  }),
  remove: (id) => kept('readwrite', (texts, metas) => { texts.delete(id); metas.delete(id); }),
};

// The PDF viewer (web/pdfview.mjs, on pdf.js and its worker) loads only when a PDF is opened
// from the document strip (index.html): files picked or dropped (several at once: a drawing
// set), a folder, or a URL. A link's
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
const open = (how, what) => Promise.all([load(), ready]).then(([v]) => {
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
// The runs module (web/runs): the Compare and Runs views, loaded while one is on show. The app
// says which view is on show and whether a report is (`shown`), and puts its report in a slot
// (`put`); the module asks for that report (`current`), says how many reports it compares (and
// whether to show them), opens a kept report in the report view and shows its failures in the
// app's banner (web/README.md, "The runs module").
let runs;
const withRuns = (f) => (runs ??= module('runs')).then(f, (e) => {
  runs = null;
  work_banner('The comparison could not be loaded', e.message, '', 0);
});
figevalServer.ask();
globalThis.figevalRuns = {
  shown(view, has) {
    Object.assign(this, { view, has });
    if (view === 'compare' || view === 'runs' || runs) withRuns((m) => m.update());
  },
  put: (slot) => withRuns((m) => { m.update(); m.put(slot); }),
  push: () => withRuns((m) => m.push()),
  pushed: app_pushed,
  current: runs_current,
  compared: runs_compared,
  report: work_report,
  banner: work_banner,
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
// OCR stopped in the viewer goes on where it stopped: the PDF is read again, its pages read so
// far from this browser's cache (pdfview.mjs's `resumeOcr`).
document.addEventListener('click', (e) => {
  if (e.target instanceof Element && e.target.closest('[data-testid=ocr-resume]')) open('resumeOcr');
});
document.addEventListener('change', (e) => {
  // Another open PDF of the set to show.
  if (e.target.matches?.('[data-testid=pdf-shown]')) return open('showNamed', e.target.value);
  if (!e.target.matches?.('[data-testid=pdf-input], [data-testid=pdf-folder]')) return;
  const files = [...e.target.files];
  e.target.value = '';
  if (files.length) open('openFiles', files);
});
document.addEventListener('submit', (e) => {
  if (!e.target.matches?.('[data-pdf-url-form]')) return;
  e.preventDefault();
  const url = e.target.querySelector('[data-testid=pdf-url]').value.trim();
  if (url) open('openUrl', url);
});
document.addEventListener('dragover', (e) => { if (inStrip(e)) e.preventDefault(); });
// The files of a dropped folder, each named by its path in it (`figevalPath`), where the
// browser gives folders (webkitGetAsEntry); a dropped file is itself.
const entryFiles = async (entry) => {
  if (entry.isFile) {
    const file = await new Promise((ok, no) => entry.file(ok, no));
    file.figevalPath = entry.fullPath.replace(/^\//, '');
    return [file];
  }
  const reader = entry.createReader();
  const all = [];
  for (let batch = await new Promise((ok, no) => reader.readEntries(ok, no)); batch.length;
    batch = await new Promise((ok, no) => reader.readEntries(ok, no))) all.push(...batch);
  return (await Promise.all(all.map(entryFiles))).flat();
};
document.addEventListener('drop', (e) => {
  if (!inStrip(e)) return;
  e.preventDefault();
  const items = [...(e.dataTransfer?.items ?? [])].filter((i) => i.kind === 'file');
  const entries = items.map((i) => i.webkitGetAsEntry?.());
  if (entries.length && entries.every(Boolean) && entries.some((en) => en.isDirectory)) {
    Promise.all(entries.map(entryFiles)).then((f) => open('openFiles', f.flat()), (err) => {
      document.querySelector('[data-testid=pdf-status]').textContent = `The folder could not be read: ${err.message}`;
    });
    return;
  }
  const files = [...(e.dataTransfer?.files ?? [])];
  if (files.length) open('openFiles', files);
});
