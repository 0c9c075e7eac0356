// The page's PDF viewer, loaded only when a PDF is opened (boot.js imports it on demand).
// It wraps pdf.js (Mozilla's `pdfjs-dist`, copied beside it by Trunk): the open PDFs (one, or
// several at once: a drawing set), one of them shown; a thumbnail of every cited page (a
// match's first page, "+N" for a wider span, read from the window row's `p. 500` /
// `pp. 500–503`) and of every expected page (the window's `data-expected`, or for a window of
// several files its `data-locations`, each from the open PDF its path names) added to each
// ranked window the app shows; thumbnails drawn lazily, only when on screen, into a bounded
// cache; the large page view a thumbnail opens (zoom, page number, printed label,
// previous/next); and the text of every page of each open PDF for the in-page ground check.
// The PDFs' bytes stay in this page: pdf.js parses them in a worker of the same origin.
// Everything shown is set as text or as an attribute, never as markup. Nothing here decides a
// number: the report's pages come from the app (the figeval core); this module draws pages.
// Which open PDF a path names is the core's rule (`figeval::files::same_file`), which the app
// hands over as `globalThis.figevalSameFile` (boot.js).

import * as pdfjs from './pdf.min.mjs';

pdfjs.GlobalWorkerOptions.workerSrc = new URL('./pdf.worker.min.mjs', import.meta.url).href;

/** Thumbnail width in CSS pixels (drawn at twice that for sharp screens). */
const THUMB_WIDTH = 84;
/** Rendered thumbnails kept (least recently used first out): about 2 MB of JPEG data URLs. */
const CACHE_LIMIT = 240;
/** Renders in flight at once: 4 draws 73 thumbnails/s here against 46 with 2 (BENCHMARKS.md). */
const PARALLEL = 4;
/** Widths (CSS pixels) of the page view's zoom steps. */
const ZOOMS = [420, 600, 800, 1000, 1300, 1700];
/** Expected pages of one location drawn as thumbnails in a window of several files. */
const LOCATION_THUMBS = 8;

/**
 * The open PDFs, in the order they were chosen: `{ name, doc, labels, run }` (`run`: the read
 * of its page texts under way or done, `texts()`).
 */
let files = [];
/** The open PDF on show (the page view's, the caption list's, the editor's; `null`: none open). */
let shown = null;
/** Counts the sets of PDFs opened (and closed): a read or a drawing of an earlier set is dropped. */
let generation = 0;
const cache = new Map(); // `${name}\n${page}` -> data URL, in use order
const waiting = new Set(); // images watched until they are on screen
const queue = []; // images on screen, waiting for a render
let running = 0;
const stats = { rendered: 0, cacheHits: 0, firstThumbMs: null, openedAt: 0, ocrPages: 0, ocrMs: 0, ocrFirstMs: null, ocrCached: 0, ocrWallMs: 0, textReads: 0, firstPages: 0, firstMs: null };

const pageOf = (img) => Number(img.dataset.thumb);
/** The open PDF a thumbnail (or its image) is of: its `data-pdf`, or the shown one. */
const fileOf = (node) => (node.dataset.pdf === undefined ? shown : files.find((f) => f.name === node.dataset.pdf) ?? null);
const keyOf = (file, page) => `${file.name}\n${page}`;

/**
 * The open PDF a dataset's or a match's path names, by the core's rule (whole trailing path
 * components): null when it names none of them, or several.
 */
function fileNamed(path) {
  const same = globalThis.figevalSameFile;
  if (typeof path !== 'string' || !path || typeof same !== 'function') return null;
  const found = files.filter((f) => same(f.name, path));
  return found.length === 1 ? found[0] : null;
}

function remember(key, url) {
  cache.delete(key);
  cache.set(key, url);
  while (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value);
}

async function draw(d, page, width, quality) {
  const p = await d.getPage(page);
  const base = p.getViewport({ scale: 1 });
  const viewport = p.getViewport({ scale: width / base.width });
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(viewport.width);
  canvas.height = Math.ceil(viewport.height);
  await p.render({ canvas, viewport, background: '#ffffff' }).promise;
  return canvas.toDataURL('image/jpeg', quality);
}

function show(img, page, url) {
  if (pageOf(img) !== page) return;
  img.src = url;
  img.dataset.rendered = String(page);
}

function fromCache(img) {
  const file = fileOf(img);
  const page = pageOf(img);
  const hit = file && cache.get(keyOf(file, page));
  if (!hit) return false;
  remember(keyOf(file, page), hit);
  stats.cacheHits++;
  show(img, page, hit);
  return true;
}

function pump() {
  while (running < PARALLEL && queue.length) {
    // The most recently shown first: what the user just scrolled to.
    const img = queue.pop();
    if (!img.isConnected || img.dataset.rendered === img.dataset.thumb || fromCache(img)) continue;
    const file = fileOf(img);
    if (!file) continue;
    const page = pageOf(img);
    running++;
    const gen = generation;
    draw(file.doc, page, THUMB_WIDTH * 2, 0.72)
      .then((url) => {
        if (gen !== generation) return;
        remember(keyOf(file, page), url);
        stats.rendered++;
        if (stats.firstThumbMs === null) stats.firstThumbMs = performance.now() - stats.openedAt;
        show(img, page, url);
      })
      .catch((e) => { if (gen === generation) img.dataset.failed = String(e && e.message ? e.message : e); })
      .finally(() => { running--; pump(); });
  }
}

const onScreen = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    const img = entry.target;
    onScreen.unobserve(img);
    waiting.delete(img);
    if (!fromCache(img)) queue.push(img);
  }
  pump();
}, { rootMargin: '200px' });

/**
 * Draws `img`'s page (its `data-thumb`, of the open PDF its `data-pdf` names, or the shown
 * one) once it is on screen, from the cache when it is there.
 */
export function watch(img) {
  const page = pageOf(img);
  const file = fileOf(img);
  if (!file || !(page >= 1 && page <= file.doc.numPages) || img.dataset.rendered === img.dataset.thumb) return;
  delete img.dataset.rendered;
  delete img.dataset.failed;
  img.removeAttribute('src');
  waiting.add(img);
  onScreen.observe(img);
}

function unwatch(img) {
  waiting.delete(img);
  onScreen.unobserve(img);
}

/** The pages of `p. 349` or `pp. 833, 834` / `pp. 500–503` (the app's wording). */
function pagesOf(text) {
  const m = /^pp?\. (.*)$/.exec((text || '').trim());
  if (!m) return [];
  const range = /^(\d+)–(\d+)$/.exec(m[1]);
  if (range) return [Number(range[1]), Number(range[2])];
  return m[1].split(', ').map(Number).filter((n) => n > 0);
}

/** A window of several files' locations (`data-locations`): `[path, start, end]` each. */
function locationsOf(win) {
  try {
    const l = JSON.parse(win.dataset.locations || '[]');
    return Array.isArray(l) ? l.filter((x) => Array.isArray(x) && typeof x[0] === 'string' && x[1] >= 1 && x[2] >= x[1]) : [];
  } catch {
    return [];
  }
}

/**
 * A thumbnail button: `page` of the open PDF `file`, `more` pages after it in the span; `why`
 * it is shown. `named`: the window is of several files, so the thumbnail says which file.
 */
function thumb(file, page, more, expected, why, named = false) {
  const b = el('button', { type: 'button', class: `page-thumb${expected ? ' expected' : ''} pdf-added`, 'data-testid': 'page-thumb', 'data-page': String(page) });
  const l = label(page, file);
  const of = named ? ` of ${file.name}` : '';
  const alt = `page ${page}${of}${l ? ` (printed ${l})` : ''}${more > 0 ? ` and ${more} more` : ''}, ${why}${expected ? ', an expected page' : ''}`;
  b.title = `Open ${alt}`;
  const img = el('img', { 'data-thumb': String(page), alt, width: '84', height: '109' });
  if (named) {
    b.dataset.pdf = file.name;
    img.dataset.pdf = file.name;
  }
  const cap = el('span', { class: 'thumb-cap' }, `p.${page}${more > 0 ? ` +${more}` : ''}`);
  const last = file.doc.numPages;
  if (page > last) {
    b.disabled = true;
    b.dataset.beyond = String(last);
    cap.textContent = `p.${page}: past the last page (${last})`;
  }
  b.append(img, cap);
  return b;
}

/** What a window of several files shows where a path names no open PDF. */
const notOpen = (path) => el('span', { class: 'muted small pdf-added', 'data-testid': 'thumb-not-open' }, `${path}: not open`);

/** Adds the thumbnails to one ranked window (once; again when the app changes it). */
function decorate(win) {
  if (!shown) return;
  // A window of several files (contract §1.5): each page from the open PDF its path names.
  const several = win.dataset.files === 'true';
  const wanted = several ? (win.dataset.locations || '') : win.dataset.expected;
  if (win.dataset.thumbsFor !== wanted) {
    win.querySelector(':scope > .expected-thumbs')?.remove();
    const bar = el('div', { class: 'expected-thumbs pdf-added', 'aria-label': 'Expected pages' });
    bar.append(el('span', { class: 'muted small' }, 'Expected:'));
    if (several) {
      for (const [path, start, end] of locationsOf(win)) {
        const file = fileNamed(path);
        if (!file) { bar.append(notOpen(path)); continue; }
        for (let p = start; p <= Math.min(end, start + LOCATION_THUMBS - 1); p++) bar.append(thumb(file, p, 0, true, `expected page in ${path}`, true));
      }
    } else {
      bar.append(...pagesOf(win.dataset.expected).map((p) => thumb(shown, p, 0, true, 'expected page')));
    }
    win.querySelector(':scope > p')?.after(bar);
    win.dataset.thumbsFor = wanted;
  }
  const expected = several ? [] : pagesOf(win.dataset.expected);
  for (const row of win.querySelectorAll('[data-testid=window-row]')) {
    const cell = row.querySelector('td.pages');
    const marker = `${cell?.title}\n${row.dataset.file ?? ''}`;
    if (!cell || cell.dataset.thumbFor === marker) continue;
    cell.querySelector(':scope > .page-thumb, :scope > [data-testid=thumb-not-open]')?.remove();
    const [start, end] = pagesOf(cell.title);
    const why = `cited at rank ${row.dataset.rank}`;
    if (start && !several) cell.append(thumb(shown, start, (end || start) - start, expected.includes(start), why));
    if (start && several) {
      const file = fileNamed(row.dataset.file);
      if (file) cell.append(thumb(file, start, (end || start) - start, row.classList.contains('on'), why, true));
      else if (row.dataset.file) cell.append(notOpen(row.dataset.file));
    }
    cell.dataset.thumbFor = marker;
  }
  for (const img of win.querySelectorAll('img[data-thumb]')) watch(img);
}

function decorateAll(node) {
  if (node.nodeType !== 1) return;
  if (node.matches('[data-testid=ranked-window]')) decorate(node);
  for (const w of node.querySelectorAll('[data-testid=ranked-window]')) decorate(w);
  const up = node.closest?.('[data-testid=ranked-window]');
  if (up) decorate(up);
}

// The app adds, changes and removes ranked windows as it renders; this follows them.
const follow = new MutationObserver((records) => {
  if (!shown) return;
  for (const r of records) {
    for (const n of r.removedNodes) {
      if (n.nodeType !== 1) continue;
      for (const img of n.querySelectorAll('img[data-thumb]')) unwatch(img);
    }
    if (r.type === 'attributes') decorateAll(r.target);
    r.addedNodes.forEach(decorateAll);
  }
});

function undecorate() {
  for (const e of document.querySelectorAll('.pdf-added')) e.remove();
  for (const e of document.querySelectorAll('[data-thumbs-for], [data-thumb-for]')) {
    delete e.dataset.thumbsFor;
    delete e.dataset.thumbFor;
  }
}

/** Reads `bytes` (a Uint8Array, which pdf.js takes over) as a PDF, or says why it cannot. */
async function load(bytes) {
  if (!bytes.length) throw new Error('the file is empty (0 bytes)');
  // What the file looks like, to say why pdf.js could not read it (it takes the bytes over).
  const ascii = (from, to) => String.fromCharCode(...bytes.subarray(from, to));
  const startsAsPdf = ascii(0, 1024).includes('%PDF-');
  const ends = ascii(Math.max(0, bytes.length - 1024), bytes.length).includes('%%EOF');
  const task = pdfjs.getDocument({ data: bytes, isEvalSupported: false });
  let encrypted = false;
  task.onPassword = () => { encrypted = true; task.destroy(); };
  try {
    return await task.promise;
  } catch (e) {
    if (encrypted || (e && e.name === 'PasswordException')) throw new Error('the PDF is encrypted (password protected): open an unprotected copy');
    if (e && e.name === 'InvalidPDFException') {
      if (!startsAsPdf) throw new Error('this is not a PDF (it has no %PDF- header)');
      throw new Error(ends ? 'the PDF is damaged beyond reading' : 'the PDF is cut short (it has no %%EOF end marker): download it again');
    }
    throw new Error(e && e.message ? e.message : String(e));
  }
}

/** Makes the open PDF `file` the shown one. */
function showFile(file) {
  closeView();
  hidePreview();
  shown = file;
  undecorate();
  decorateAll(document.body);
}

/**
 * Opens several documents at once (the PDFs of a drawing set), from `[name, bytes]` pairs (a
 * Uint8Array each, which pdf.js takes over), closing those open before, and starts drawing the
 * thumbnails on the page; the first that opens is shown. Resolves `{ opened, failed }`: the
 * names and page counts of those that opened, and `[name, why]` of those that did not (not a
 * PDF, encrypted, damaged). Rejects when another set is opened meanwhile.
 */
async function openAll(list) {
  close();
  const gen = generation;
  stats.openedAt = performance.now();
  stats.firstThumbMs = null;
  const opened = [];
  const failed = [];
  for (const [name, bytes] of list) {
    let d;
    try {
      d = await load(bytes);
    } catch (e) {
      failed.push([String(name), e && e.message ? e.message : String(e)]);
      continue;
    }
    if (gen !== generation) {
      d.loadingTask.destroy();
      throw new Error('another PDF was opened meanwhile');
    }
    let l;
    try { l = await d.getPageLabels(); } catch { l = null; }
    opened.push({ name: String(name || 'the PDF'), doc: d, labels: l && l.length === d.numPages ? l : null, run: null });
  }
  if (gen !== generation) throw new Error('another PDF was opened meanwhile');
  files = opened;
  if (files.length) {
    showFile(files[0]);
    follow.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-expected', 'data-locations', 'data-file', 'title'] });
  }
  return { opened: files.map((f) => [f.name, f.doc.numPages]), failed };
}

/** The printed page labels of the open PDF `name` (the one on show when not given), one per page (null: none open, or it has none). */
export function pageLabels(name) {
  const file = name === undefined ? shown : files.find((f) => f.name === name);
  return file ? file.labels : null;
}

/** The open PDFs' names, in the order they were chosen. */
function openNames() {
  return files.map((f) => f.name);
}

/** Closes the open documents, the page view and the thumbnails. */
export function close() {
  generation++;
  closeView();
  hidePreview();
  follow.disconnect();
  cache.clear();
  previews.clear();
  queue.length = 0;
  for (const img of waiting) onScreen.unobserve(img);
  waiting.clear();
  // pdf.js 6 ends a document through its loading task (the proxy has no destroy of its own).
  for (const f of files) f.doc.loadingTask.destroy();
  files = [];
  shown = null;
  undecorate();
}

// --- the document strip (the app's markup; its status is written here) -----------------------

/** Counts the sets of PDFs opened: the strip's `data-set`, by which web/doc tells a new set. */
let sets = 0;
/** The strip's line for the set open now (the shown PDF changes, the line stays). */
let openLine = '';

/**
 * Writes the strip's state: `data-status`, the shown PDF's `data-pages` and `data-name`, every
 * open PDF's name (`data-names`, a JSON list) and `data-set`; its status line; and the choice
 * of the shown PDF (`pdf-shown`) when several are open.
 */
function strip(status, text, pages = 0, name = '') {
  const panel = document.querySelector('[data-testid=pdf-panel]');
  if (panel) {
    Object.assign(panel.dataset, { status, pages: String(pages), name, names: JSON.stringify(openNames()), set: String(sets) });
  }
  const s = document.querySelector('[data-testid=pdf-status]');
  if (s) s.textContent = text;
  shownChoice(s);
}

/** The `pdf-shown` choice after the status line: which open PDF is shown (boot.js answers it). */
function shownChoice(status) {
  let box = document.querySelector('[data-testid=pdf-shown-box]');
  if (files.length < 2) {
    box?.remove();
    return;
  }
  if (!box) {
    box = el('label', { class: 'pdf-shown', 'data-testid': 'pdf-shown-box' }, 'Shown: ');
    box.append(el('select', { 'data-testid': 'pdf-shown' }));
    status?.after(box);
  }
  const select = box.querySelector('select');
  select.replaceChildren(...files.map((f) => {
    const o = el('option', { value: f.name }, `${f.name} (${count(f.doc.numPages, 'page', 'pages')})`);
    o.selected = f === shown;
    return o;
  }));
}

const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const why = (e) => (e && e.message ? e.message : String(e));

/** The status line of a set: what opened, what could not, what was not a PDF. */
function setLine(opened, failed, skipped) {
  let line = opened.length === 1
    ? `open: ${opened[0][0]} — ${count(opened[0][1], 'page', 'pages')}`
    : `open: ${opened.length} PDFs — ${opened.map(([n, p]) => `${n} (${count(p, 'page', 'pages')})`).join(', ')}`;
  if (failed.length) line += ` · could not be opened: ${failed.map(([n, w]) => `${n} (${w})`).join('; ')}`;
  if (skipped) line += ` · ${count(skipped, 'other file was', 'other files were')} left aside: not PDFs`;
  return line;
}

let attempts = 0;

/**
 * Opens the `[name, bytes]` pairs `read()` gives, as one set (`what`: how the strip names them
 * while they open; `skipped`: files chosen that are not PDFs; `showName`: the PDF to show, when
 * it is among them). An open that fails closes what was open: the strip and the document module
 * never speak of a PDF that is no longer open.
 */
async function opening(what, read, skipped = 0, showName = null) {
  const mine = ++attempts;
  strip('loading', `Opening ${what}…`);
  try {
    const list = await read();
    // pdf.js takes the bytes over; the copies are kept to reopen.
    const copies = list.map(([n, b]) => [n, b.slice()]);
    const { opened, failed } = await openAll(list);
    if (mine !== attempts) return;
    if (!opened.length) {
      const line = failed.length === 1
        ? `${failed[0][0]} could not be opened: ${failed[0][1]}`
        : `None of the ${failed.length} files could be opened: ${failed.map(([n, w]) => `${n} (${w})`).join('; ')}`;
      strip('failed', line);
      return;
    }
    const again = files.find((f) => f.name === showName);
    if (again) showFile(again);
    sets++;
    openLine = setLine(opened, failed, skipped);
    strip('open', openLine, shown.doc.numPages, shown.name);
    await keepLast(copies.filter(([n]) => files.some((f) => f.name === n)));
  } catch (e) {
    if (mine !== attempts) return;
    close();
    strip('failed', `${what} could not be opened: ${why(e)}`);
  }
}

/** Shows the open PDF named `name` (the strip's `pdf-shown`): the page view, the captions, the editor follow. */
export function showNamed(name) {
  const file = files.find((f) => f.name === name);
  if (!file || file === shown) return;
  showFile(file);
  strip('open', openLine, file.doc.numPages, file.name);
}

// --- the last PDFs, kept in this browser to reopen --------------------------------------------

/** The name of the last PDFs opened, in localStorage (boot.js offers them at start). */
const LAST = 'figeval.lastPdf';

/** The IndexedDB database of pages read by OCR (its store `pdf` holds them, by key). */
const OCR_DB = 'figeval-ocr';

/**
 * Runs `act` on the `pdf` store of this origin's IndexedDB database `name` (`figeval`: the last
 * PDFs; `figeval-ocr`: pages read by OCR); its result, or the results of a list of requests.
 */
function stored(mode, act, name = 'figeval') {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(name, 1);
    r.onupgradeneeded = () => r.result.createObjectStore('pdf');
    r.onerror = () => reject(r.error);
    r.onsuccess = () => {
      const db = r.result;
      const tx = db.transaction('pdf', mode);
      const req = act(tx.objectStore('pdf'));
      tx.oncomplete = () => { db.close(); resolve(Array.isArray(req) ? req.map((q) => q.result) : req.result); };
      tx.onerror = tx.onabort = () => { db.close(); reject(tx.error); };
    };
  });
}

/**
 * Keeps the `[name, bytes]` pairs as the last PDFs, in this browser only (never uploaded), to
 * be offered at the next start. A browser that refuses (storage full, private mode) keeps
 * nothing and offers nothing: opening the PDFs does not depend on it.
 */
async function keepLast(list) {
  try {
    await stored('readwrite', (s) => s.put({ files: list }, 'last'));
    localStorage.setItem(LAST, list.length === 1 ? list[0][0] : `${list[0][0]} and ${list.length - 1} more`);
  } catch {
    try { localStorage.removeItem(LAST); } catch { /* no storage at all */ }
  }
}

/** Opens the last PDFs kept in this browser, or says they are no longer there. */
export async function reopenLast() {
  let kept;
  try { kept = await stored('readonly', (s) => s.get('last')); } catch { kept = null; }
  // A PDF kept before sets were (one `name` and its `bytes`) reopens as a set of one.
  const list = kept && (Array.isArray(kept.files) ? kept.files : kept.bytes ? [[kept.name, kept.bytes]] : null);
  if (!list || !list.length) {
    try { localStorage.removeItem(LAST); } catch { /* nothing kept */ }
    strip('failed', 'The last PDF is no longer kept in this browser: open it again.');
    return;
  }
  return opening(list.length === 1 ? list[0][0] : `${list.length} PDFs`, async () => list);
}

const isPdf = (f) => /\.pdf$/iu.test(f.name) || f.type === 'application/pdf';
/** A chosen file's name: its path in the folder chosen or dropped (boot.js), when it came from one. */
const nameOf = (f) => f.figevalPath || f.webkitRelativePath || f.name;

/**
 * Reads the Files chosen (the file input, a drop, a folder) in the page, never sent anywhere,
 * and opens them as one set: one file whatever it is (a file that is no PDF says so); of
 * several, the PDFs among them, in name order.
 */
export function openFiles(chosen) {
  const all = [...chosen];
  const pdfs = all.length === 1 ? all : all.filter(isPdf);
  if (!pdfs.length) {
    close();
    strip('failed', `None of the ${all.length} files chosen is a PDF (named .pdf).`);
    return Promise.resolve();
  }
  pdfs.sort((a, b) => nameOf(a).localeCompare(nameOf(b), undefined, { numeric: true }));
  const what = pdfs.length === 1 ? nameOf(pdfs[0]) : `${pdfs.length} PDFs`;
  return opening(what, () => Promise.all(pdfs.map(async (f) => [nameOf(f), new Uint8Array(await f.arrayBuffer())])), all.length - pdfs.length);
}

/** Fetches a PDF by URL (no credentials) and opens it. */
export function openUrl(url) {
  return opening(url, async () => {
    let r;
    try {
      r = await fetch(url, { credentials: 'omit' });
    } catch (e) {
      throw new Error(`could not fetch ${url}: ${e.message}`);
    }
    if (!r.ok) throw new Error(`${url} answered HTTP ${r.status}: ${(await r.text().catch(() => '')).slice(0, 300)}`);
    return [[url, new Uint8Array(await r.arrayBuffer())]];
  });
}

// --- the page view ---------------------------------------------------------------------------

let view = null; // { root, dialog, title, img, file, page, zoom, opener, ticket }

/** The printed label of `page` of the open PDF `file` when it has one that is not the page number. */
function label(page, file = shown) {
  const ls = file?.labels;
  const l = ls && ls[page - 1] ? String(ls[page - 1]).trim() : '';
  return l && l !== String(page) ? l : '';
}

function el(tag, props = {}, text = '') {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function button(testid, text, aria, onclick) {
  const b = el('button', { type: 'button', 'data-testid': testid, ...(aria ? { 'aria-label': aria } : {}) }, text);
  b.addEventListener('click', onclick);
  return b;
}

function closeView() {
  if (!view) return;
  view.root.remove();
  const opener = view.opener;
  view = null;
  if (opener && opener.isConnected) opener.focus();
}

/**
 * The page view's widths: ZOOMS, led by the window's own width when that is narrower than the
 * first (a phone), so the page can be seen whole; and the one to start at, the widest that
 * fits the window, at most 800 px.
 */
function zoomsFor(windowWidth) {
  // The overlay's and the dialog's padding on both sides, the image's border, and a margin.
  const fit = Math.max(160, Math.floor(windowWidth - 2 * (8 + 13) - 12));
  const zooms = fit < ZOOMS[0] ? [fit, ...ZOOMS] : ZOOMS;
  let start = 0;
  zooms.forEach((w, i) => { if (w <= Math.min(fit, 800)) start = i; });
  return { zooms, start };
}

function showPage(page, zoom = view.zoom) {
  const { file } = view;
  const last = file.doc.numPages;
  page = Math.min(Math.max(1, page), last);
  Object.assign(view, { page, zoom });
  const l = label(page, file);
  const of = files.length > 1 ? ` of ${file.name}` : '';
  const title = `Page ${page} of ${last}${of}${l ? ` · printed page ${l}` : ''}`;
  view.title.textContent = title;
  view.dialog.dataset.page = String(page);
  view.dialog.dataset.label = l;
  view.prev.disabled = page <= 1;
  view.next.disabled = page >= last;
  const zooms = view.zooms;
  view.out.disabled = zoom === 0;
  view.in.disabled = zoom === zooms.length - 1;
  view.zoomText.textContent = `${zooms[zoom]} px`;
  view.status.textContent = `Rendering page ${page}…`;
  view.status.hidden = false;
  view.img.hidden = true;
  const ticket = ++view.ticket;
  const gen = generation;
  draw(file.doc, page, Math.round(zooms[zoom] * (window.devicePixelRatio || 1)), 0.9).then((url) => {
    if (!view || view.ticket !== ticket || gen !== generation) return;
    view.img.src = url;
    view.img.width = zooms[zoom];
    view.img.alt = `${title}, ${file.name}`;
    view.img.dataset.page = String(page);
    view.img.hidden = false;
    view.status.hidden = true;
  }, (e) => {
    if (!view || view.ticket !== ticket) return;
    view.status.textContent = `Page ${page} could not be drawn: ${e && e.message ? e.message : e}`;
  });
}

/**
 * Opens the page view on `page` of the open PDF `file` (the shown one unless said; `opener`
 * gets the focus back when it closes).
 */
export function openView(page, opener, file = shown) {
  if (!file) return;
  if (view && view.file !== file) closeView();
  if (!view) {
    const root = el('div', { class: 'overlay' });
    const dialog = el('div', { class: 'page-view', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'page-view-h', 'data-testid': 'page-view', tabindex: '-1' });
    const bar = el('div', { class: 'row wrap page-view-bar' });
    const title = el('h2', { id: 'page-view-h' });
    const { zooms, start } = zoomsFor(window.innerWidth);
    const v = { root, dialog, title, file, page, zoom: start, zooms, opener, ticket: 0 };
    v.prev = button('page-previous', '‹ Previous', '', () => showPage(view.page - 1));
    v.next = button('page-next', 'Next ›', '', () => showPage(view.page + 1));
    v.out = button('zoom-out', '−', 'Zoom out', () => showPage(view.page, Math.max(0, view.zoom - 1)));
    v.zoomText = el('span', { class: 'muted small', 'data-testid': 'zoom' });
    v.in = button('zoom-in', '+', 'Zoom in', () => showPage(view.page, Math.min(view.zooms.length - 1, view.zoom + 1)));
    const x = button('page-view-close', '✕', 'Close the page view', closeView);
    x.className = 'ghost';
    bar.append(title, v.prev, v.next, v.out, v.zoomText, v.in, x);
    // Focusable, so a page zoomed past the window scrolls from the keyboard too.
    const body = el('div', { class: 'page-view-body', tabindex: '0', role: 'region', 'aria-label': 'The page (scrolls when zoomed in)' });
    v.status = el('p', { class: 'muted', role: 'status' });
    v.img = el('img', { 'data-testid': 'page-view-image' });
    body.append(v.status, v.img);
    dialog.append(bar, body);
    root.append(dialog);
    root.addEventListener('click', (e) => { if (e.target === root) closeView(); });
    dialog.addEventListener('keydown', (e) => {
      const to = { Escape: null, ArrowLeft: -1, PageUp: -1, ArrowRight: 1, PageDown: 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      if (to === null) closeView(); else showPage(view.page + to);
    });
    document.body.append(root);
    view = v;
    dialog.focus();
  }
  showPage(page);
}

// A click on a thumbnail the app drew opens its page.
document.addEventListener('click', (e) => {
  const thumb = e.target instanceof Element ? e.target.closest('[data-testid=page-thumb][data-page]') : null;
  const file = thumb && fileOf(thumb);
  if (file) { hidePreview(); openView(Number(thumb.dataset.page), thumb, file); }
});

// --- the preview a thumbnail shows while hovered or focused ----------------------------------

/** The preview's width in CSS pixels (drawn at twice that): wide enough to make out a figure. */
const PREVIEW_WIDTH = 340;
/** How long a pointer rests on a thumbnail before its preview is drawn, in milliseconds. */
const PREVIEW_DELAY_MS = 120;
/** Previews kept (least recently used first out). */
const PREVIEW_CACHE = 24;
const previews = new Map(); // `${name}\n${page}` -> data URL, in use order
let previewFor = null; // the thumbnail whose preview is on show or being drawn
let previewTimer = 0;

/** The thumbnail (ranked window, editor) under `node`, when the document is open. */
const thumbOf = (node) => (shown && node instanceof Element
  ? node.closest('.page-thumb[data-page]:not(:disabled)') : null);

function hidePreview() {
  clearTimeout(previewTimer);
  previewFor = null;
  document.querySelector('[data-testid=thumb-preview]')?.remove();
}

/**
 * Shows `button`'s page larger, beside it (or, where the browser cannot anchor it, in the
 * window's corner): a picture only, hidden from screen readers, which read the thumbnail's
 * description; a click on the thumbnail still opens the page view.
 */
function showPreview(button) {
  if (previewFor === button) return;
  hidePreview();
  previewFor = button;
  const page = Number(button.dataset.page);
  const file = fileOf(button);
  if (!file || !(page >= 1 && page <= file.doc.numPages)) return;
  const gen = generation;
  const key = keyOf(file, page);
  previewTimer = setTimeout(async () => {
    let url = previews.get(key);
    if (!url) {
      try { url = await draw(file.doc, page, PREVIEW_WIDTH * 2, 0.8); } catch { return; }
      if (gen !== generation) return;
      previews.delete(key);
      previews.set(key, url);
      while (previews.size > PREVIEW_CACHE) previews.delete(previews.keys().next().value);
    }
    if (previewFor !== button || !button.isConnected) return;
    const l = label(page, file);
    const fig = el('figure', { class: 'thumb-preview', 'data-testid': 'thumb-preview', 'data-page': String(page), 'aria-hidden': 'true' });
    fig.append(el('img', { src: url, alt: '', width: String(PREVIEW_WIDTH) }),
      el('figcaption', {}, `page ${page}${l ? ` (printed ${l})` : ''}`));
    document.querySelector('.thumb-anchor')?.classList.remove('thumb-anchor');
    button.classList.add('thumb-anchor');
    document.body.append(fig);
  }, PREVIEW_DELAY_MS);
}

document.addEventListener('pointerover', (e) => { const t = thumbOf(e.target); if (t) showPreview(t); });
document.addEventListener('pointerout', (e) => {
  if (previewFor && !previewFor.contains(e.relatedTarget) && thumbOf(e.target) === previewFor) hidePreview();
});
document.addEventListener('focusin', (e) => { const t = thumbOf(e.target); if (t) showPreview(t); else if (previewFor) hidePreview(); });
document.addEventListener('focusout', (e) => { if (previewFor && !previewFor.contains(e.relatedTarget)) hidePreview(); });
document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && previewFor) hidePreview(); });

// --- text ------------------------------------------------------------------------------------

/**
 * A text layer with fewer non-whitespace characters than this is nearly empty, and its page is
 * read by OCR when it paints an image: `crates/pagetext`'s `NEARLY_EMPTY_CHARS` and the rule of
 * its `read_pages` (`--ocr auto`), so the page reads the pages `figeval captions` reads by OCR.
 */
const NEARLY_EMPTY_CHARS = 32;
/** A scanned page's source while OCR has still to read it (`web/doc`'s `NOT_READ_YET`). */
const NOT_READ_YET = 'not read by OCR yet';
/** A page's source while its text is still to be read (`web/doc`'s `NOT_READ`). */
const NOT_READ = 'not read yet';
/** The resolution a scanned page is drawn at for OCR, in dots per inch: `pagetext`'s (`pdftoppm -r 200`). */
const OCR_DPI = 200;
/**
 * How long one page may take through OCR in the page, from when a started worker takes it,
 * before it is `unreadable`: twice the command line's default `--ocr-timeout` (60 s),
 * since tesseract.js reads about half as fast as native tesseract. `setOcrPageLimit` changes it
 * (tests).
 */
let ocrPageMs = 120_000;

/** Sets the time limit of one page through OCR, in milliseconds (an automation hook). */
export function setOcrPageLimit(ms) {
  ocrPageMs = Math.max(1, Number(ms) || 1);
}

/** A page's OCR that ran past its time limit. */
class OcrTimedOut extends Error {}

/**
 * `ocrPage` within the page's time limit: past it the page is given up as unreadable. The job
 * is left to end in the engine's worker (terminating tesseract.js's worker mid-job made it
 * throw uncaught errors), so a later page may wait behind it, within its own limit.
 */
async function ocrPageWithin(d, n, keyOf) {
  let timer;
  let startLimit;
  // The limit runs from when a worker takes the page: a page waiting behind another (one
  // past its limit and still in its worker) is not charged for the wait, so one slow page
  // does not make every page after it unreadable.
  const limit = new Promise((_, reject) => {
    startLimit = () => {
      timer = setTimeout(() => reject(new OcrTimedOut(`OCR took longer than ${ocrPageMs / 1000} s on this page`)), ocrPageMs);
    };
  });
  const job = ocrPage(d, n, startLimit);
  // What the page says is kept for the next opening, also when it comes after a stop or past
  // the limit; past the limit its end (the stopped worker's refusal) is not news.
  job.then((r) => keyOf && keepOcr(keyOf(n), r)).catch(() => {});
  try {
    return await Promise.race([job, limit]);
  } finally {
    clearTimeout(timer);
  }
}
/** The longest side a page is drawn at for OCR, in pixels (`pagetext`'s `MAX_RENDER_PIXELS`). */
const OCR_MAX_PIXELS = 6000;

const nearlyEmpty = (s) => (s.match(/\S/gu) || []).length < NEARLY_EMPTY_CHARS;

/** pdf.js operators that paint an image. */
const IMAGE_OPS = new Set(Object.entries(pdfjs.OPS).filter(([name]) => /Image/.test(name)).map(([, op]) => op));

async function paintsImage(page) {
  const ops = await page.getOperatorList();
  return ops.fnArray.some((op) => IMAGE_OPS.has(op));
}

let ocrModule = null;
const ocrEngine = () => (ocrModule ??= import('./ocr.mjs').catch((e) => { ocrModule = null; throw e; }));
let ocrRun = null; // { cancelled, stop, stopped } of the OCR under way
/** What a lane of the OCR gets when *Stop OCR* is pressed. */
const STOP = Symbol('stop');
/** A page's source when OCR was stopped before it was read. */
const STOPPED = 'OCR was stopped before this page';
/** Pages read by OCR at once (null: the engine's `WORKERS`); `setOcrWorkers` sets it (tests). */
let ocrLanes = null;

/** Sets how many pages OCR reads at once, `null` for as many as the engine has workers (an automation hook). */
export function setOcrWorkers(n) {
  ocrLanes = n === null ? null : Math.max(1, Number(n) || 1);
}

/**
 * What a page's OCR text depends on besides the PDF and the page: how it is drawn and read
 * (`ocr.mjs`: the engine, its model, the page segmentation mode, the speck rule). A change to
 * any of them is another key, so text read otherwise is never taken for it.
 */
const OCR_SETTINGS = `dpi ${OCR_DPI}; max ${OCR_MAX_PIXELS} px; tesseract.js 7.0.0; eng 4.0.0_best_int; LSTM; psm 3, dpi given; speck 10`;

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The cache key of each page of `d`, as the command line's OCR cache names its entries
 * (contract §13.7): the PDF's SHA-256, the start of the settings' SHA-256, the page. Rejects
 * where the browser cannot hash (an insecure origin has no `crypto.subtle`).
 */
async function ocrKeys(d) {
  const [pdf, settings] = await Promise.all([
    crypto.subtle.digest('SHA-256', await d.getData()),
    crypto.subtle.digest('SHA-256', new TextEncoder().encode(OCR_SETTINGS)),
  ]);
  const base = `${hex(pdf)}/${hex(settings).slice(0, 16)}`;
  return (n) => `${base}-p${n}`;
}

/** The cached `{ text, confidence }` of each key (undefined: none), from this browser's IndexedDB. */
function ocrCached(keys) {
  return stored('readonly', (s) => keys.map((k) => s.get(k)), OCR_DB);
}

/** Keeps a page's OCR; a browser that refuses (storage full, private mode) keeps nothing. */
function keepOcr(key, r) {
  return stored('readwrite', (s) => s.put({ text: r.text, confidence: r.confidence }, key), OCR_DB).catch(() => {});
}

/**
 * Reads the open PDFs again, the one shown staying shown, their scanned pages read so far from
 * the cache: OCR goes on where it stopped.
 */
export async function resumeOcr() {
  if (!files.length) return;
  const list = await Promise.all(files.map(async (f) => [f.name, await f.doc.getData()]));
  return opening(list.length === 1 ? list[0][0] : `${list.length} PDFs`, async () => list, 0, shown.name);
}

/**
 * The strip's line while OCR reads (`ocr-status`), with its cancel (`ocr-cancel`), and once
 * stopped, `ocr-resume` (boot.js opens the PDF again through `resumeOcr`).
 */
function ocrStatus(text, running, resumable = false) {
  const s = document.querySelector('[data-testid=pdf-status]');
  if (!s) return;
  let line = document.querySelector('[data-testid=ocr-status]');
  if (!line) {
    line = el('span', { 'data-testid': 'ocr-status', role: 'status', class: 'pdf-added' });
    const stop = button('ocr-cancel', 'Stop OCR', '', () => {
      if (!ocrRun) return;
      ocrRun.cancelled = true;
      ocrRun.stop();
    });
    // boot.js answers a click on `ocr-resume`: it opens the PDF again (`resumeOcr`) and tells
    // the document module, as for any PDF opened.
    const resume = el('button', { type: 'button', 'data-testid': 'ocr-resume' }, 'Resume OCR');
    line.append(el('span'), stop, resume);
    s.after(line);
  }
  const [words, stop, resume] = line.children;
  words.textContent = text;
  stop.hidden = !running;
  resume.hidden = !resumable;
  line.dataset.running = String(running);
}

async function ocrPage(d, n, onTurn) {
  const p = await d.getPage(n);
  const base = p.getViewport({ scale: 1 });
  const scale = Math.min(OCR_DPI / 72, OCR_MAX_PIXELS / Math.max(base.width, base.height));
  const viewport = p.getViewport({ scale });
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(viewport.width);
  canvas.height = Math.ceil(viewport.height);
  await p.render({ canvas, viewport, background: '#ffffff' }).promise;
  // The resolution it was drawn at: 200 dpi, less for a page so large that its longest side
  // would pass OCR_MAX_PIXELS (as the command line lowers `pdftoppm -r`).
  return (await ocrEngine()).read(canvas, onTurn, scale * 72);
}

/**
 * The text of every page of the open PDF named `name` (the shown one when not given), in order (1-based page n is element n-1), one line a line. The pages
 * in `first` (the dataset's expected pages) and the pages the ranked windows in the page show
 * are read before the others, and handed at once to `progress(done, total, soFar)` (`soFar`:
 * the texts so far, a page still to read has the source `not read yet`); then `progress(done,
 * total)` as the rest is read, `done` counting only the pages whose text is known. A page whose
 * text layer is nearly empty and that paints an image is drawn and read by tesseract.js
 * (`ocr.mjs`, loaded then): the first pages before the others, the rest in page order, with the
 * strip's `ocr-status` saying how far it is and `ocr-cancel` to stop it; each page read hands
 * over the texts so far. The list's `sources` says where each page's text came from: `null`
 * its text layer, a number the OCR's mean word confidence (0 to 100), a string why OCR could
 * not read it (its text is then empty). Rejects when the document is closed meanwhile.
 */
export function texts(progress, first = [], name = undefined) {
  const file = name === undefined || name === null ? shown : files.find((f) => f.name === name);
  if (!file) return Promise.reject(new Error(name ? `${name} is not open` : 'no PDF is open'));
  // One read per open document: a second caller (the document module reports an open PDF
  // again when it starts after it, or when another PDF of the set is shown and this one again)
  // shares the read under way, or its result, and its progress, so a scanned PDF is not read
  // by OCR twice and *Stop OCR* stops the one read.
  const had = file.run;
  if (had) {
    if (progress) {
      had.listeners.add(progress);
      if (had.last) progress(...had.last);
    }
    return had.promise;
  }
  const run = { listeners: new Set(progress ? [progress] : []), last: null };
  file.run = run;
  run.promise = readTexts(file, (...args) => {
    run.last = args;
    for (const l of run.listeners) l(...args);
  }, first).catch((e) => {
    if (file.run === run) file.run = null;
    throw e;
  });
  return run.promise;
}

/** The text of page `n` of `d`, one line a line, and whether it is a scan for OCR to read. */
async function layerText(d, n) {
  const page = await d.getPage(n);
  const content = await page.getTextContent();
  let s = '';
  for (const item of content.items) {
    if (item.str === undefined) continue;
    s += item.str;
    if (item.hasEOL) s += '\n';
  }
  return { text: s, scan: nearlyEmpty(s) && await paintsImage(page) };
}

/** Text layers read at once while the pages the check needs come first. */
const FIRST_PARALLEL = 8;
/** A cited span longer than this reads only its first pages first (the rest come in order). */
const FIRST_SPAN = 8;

/**
 * The pages of the open PDF `file` that the ranked windows in the page show (each expected
 * page, each cited page), so that their texts are read before the rest of the document.
 */
function windowPages(file) {
  const pages = [];
  const span = (start, end) => {
    for (let p = start; p <= Math.min(end || start, start + FIRST_SPAN - 1); p++) pages.push(p);
  };
  for (const win of document.querySelectorAll('[data-testid=ranked-window]')) {
    if (win.dataset.files === 'true') {
      for (const [path, start, end] of locationsOf(win)) if (fileNamed(path) === file) span(start, end);
      for (const row of win.querySelectorAll('[data-testid=window-row]')) {
        const [start, end] = pagesOf(row.querySelector('td.pages')?.title);
        if (start && fileNamed(row.dataset.file) === file) span(start, end);
      }
      continue;
    }
    if (file !== shown) continue;
    pages.push(...pagesOf(win.dataset.expected));
    for (const cell of win.querySelectorAll('[data-testid=window-row] td.pages')) {
      const [start, end] = pagesOf(cell.title);
      if (!start) continue;
      for (let p = start; p <= Math.min(end || start, start + FIRST_SPAN - 1); p++) pages.push(p);
    }
  }
  return pages;
}

async function readTexts(file, progress, first) {
  stats.textReads++;
  const d = file.doc;
  const gen = generation;
  const total = d.numPages;
  const out = new Array(total).fill('');
  // Every page not read yet says so (`web/doc`'s `NOT_READ`); a scan OCR has still to read,
  // `NOT_READ_YET`; a page read from its text layer, null.
  const sources = new Array(total).fill(NOT_READ);
  const scans = [];
  let read = 0; // pages whose text is known: every progress line counts these
  const closed = () => { if (gen !== generation) throw new Error('the PDF was closed'); };
  // Of a set, the OCR line names the PDF it reads.
  const whose = files.length > 1 ? `${file.name}: ` : '';
  const readLayer = async (n) => {
    const { text, scan } = await layerText(d, n);
    closed();
    out[n - 1] = text;
    if (scan) {
      scans.push(n);
      sources[n - 1] = NOT_READ_YET;
    } else {
      sources[n - 1] = null;
      read++;
    }
  };
  const soFar = () => progress && progress(read, total, Object.assign(out.slice(), { sources: sources.slice() }));
  // The pages the check needs first (the dataset's expected pages, the ranked windows' pages):
  // their texts go out at once, so the items whose verdict they settle are shown in seconds.
  const wanted = [...new Set([...first, ...windowPages(file)])]
    .filter((n) => Number.isInteger(n) && n >= 1 && n <= total)
    .sort((a, b) => a - b);
  for (let i = 0; i < wanted.length; i += FIRST_PARALLEL) {
    closed();
    await Promise.all(wanted.slice(i, i + FIRST_PARALLEL).map(readLayer));
  }
  stats.firstPages = wanted.length;
  stats.firstMs = performance.now() - stats.openedAt;
  if (wanted.length && wanted.length < total) soFar();
  const early = new Set(wanted);
  let sinceProgress = 0;
  for (let n = 1; n <= total; n++) {
    closed();
    if (early.has(n)) continue;
    await readLayer(n);
    if (progress && ++sinceProgress === 25) {
      sinceProgress = 0;
      progress(read, total);
    }
  }
  if (progress) progress(read, total);
  if (scans.length) {
    const wantedSet = new Set(wanted);
    scans.sort((a, b) => a - b);
    const order = [...scans.filter((n) => wantedSet.has(n)), ...scans.filter((n) => !wantedSet.has(n))];
    const run = { cancelled: false, stop: null };
    run.stopped = new Promise((resolve) => { run.stop = () => resolve(STOP); });
    ocrRun = run;
    const started = performance.now();
    // The pages this browser read before (the same PDF, page and settings) come from its cache.
    const keyOf = await ocrKeys(d).catch(() => null);
    closed();
    let fromCache = 0;
    if (keyOf) {
      const kept = await ocrCached(order.map(keyOf)).catch(() => []);
      closed();
      order.forEach((n, i) => {
        const k = kept[i];
        if (!k || typeof k.text !== 'string' || !Number.isFinite(k.confidence)) return;
        out[n - 1] = k.text;
        sources[n - 1] = k.confidence;
        read++;
        fromCache++;
      });
    }
    stats.ocrCached += fromCache;
    const todo = order.filter((n) => sources[n - 1] === NOT_READ_YET);
    let done = 0;
    const cached = fromCache ? ` (${fromCache} from this browser's cache)` : '';
    // While OCR reads, every page read hands the texts so far to the progress listeners (a
    // page still to read says so), so the caption list shows what is read already.
    soFar();
    try {
      if (todo.length) {
        ocrStatus(`${whose}Reading scanned pages by OCR: ${fromCache} of ${order.length}${cached}…`, true);
        const lanes = Math.min(ocrLanes ?? (await ocrEngine()).WORKERS, todo.length);
        let next = 0;
        const lane = async () => {
          while (next < todo.length) {
            const n = todo[next++];
            closed();
            if (run.cancelled) {
              out[n - 1] = '';
              sources[n - 1] = STOPPED;
              continue;
            }
            const pageStarted = performance.now();
            try {
              // Stopping does not wait for the page under way: its result, when it comes, is
              // only kept in the cache, for the next opening.
              const r = await Promise.race([ocrPageWithin(d, n, keyOf), run.stopped]);
              closed();
              if (r === STOP) {
                out[n - 1] = '';
                sources[n - 1] = STOPPED;
                continue;
              }
              out[n - 1] = r.text;
              sources[n - 1] = r.confidence;
              read++;
              const ms = performance.now() - pageStarted;
              stats.ocrMs += ms;
              stats.ocrFirstMs ??= ms;
              stats.ocrPages++;
            } catch (e) {
              closed();
              out[n - 1] = '';
              sources[n - 1] = e instanceof OcrTimedOut ? e.message : `OCR failed: ${e && e.message ? e.message : e}`;
            }
            done++;
            if (done < todo.length && !run.cancelled) {
              ocrStatus(`${whose}Reading scanned pages by OCR: ${fromCache + done} of ${order.length}${cached}…`, true);
              soFar();
            }
          }
        };
        await Promise.all(Array.from({ length: lanes }, lane));
      }
    } finally {
      if (ocrRun === run) ocrRun = null;
    }
    stats.ocrWallMs = performance.now() - started;
    const ocred = sources.filter((c) => typeof c === 'number').length;
    const stopped = sources.filter((c) => c === STOPPED).length;
    ocrStatus(`${whose}${ocred} of ${total} ${total === 1 ? 'page' : 'pages'} read by OCR${stopped ? ` (stopped: ${stopped} not read)` : ''}.${fromCache ? ` ${fromCache} of them from this browser's cache.` : ''}`, false, stopped > 0);
  }
  out.sources = sources;
  return out;
}

/**
 * Counters for tests and benchmarks: thumbnails rendered, cache hits, cache size, first thumbnail;
 * pages read by OCR, the time they took (ms) and the first one's (with the engine's start); reads
 * of a document's page texts (`texts()` callers that share one read count once).
 */
export function counters() {
  return { ...stats, cached: cache.size, cacheLimit: CACHE_LIMIT, queued: queue.length, watching: waiting.size };
}
