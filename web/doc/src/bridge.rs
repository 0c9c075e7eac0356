//! The module's side of the bridge to the page (web/README.md, "The document module"): the
//! document strip's state, the viewer's page texts and thumbnails (`web/pdfview.mjs`) and the
//! main app's dataset (`figevalDoc`, set up by `web/boot.js`). What boot.js calls in the module
//! is in `app.rs` (`pdf_changed`, `show`). Thin wrappers; nothing here decides a number.

use std::cell::RefCell;

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlImageElement;

use crate::state::{Announced, Pdf, Source};

#[wasm_bindgen]
extern "C" {
    /// The PDF viewer module (`pdfview.mjs`): a promise of its exports (boot.js).
    #[wasm_bindgen(js_name = figevalRenderer)]
    fn viewer_module() -> js_sys::Promise;

    /// boot.js's bridge object, `globalThis.figevalDoc`.
    #[wasm_bindgen(thread_local_v2, js_name = figevalDoc)]
    static BRIDGE: JsValue;
}

/// What the main app last announced (nothing: none announced yet).
pub fn announced() -> Announced {
    let field = |name: &str| {
        BRIDGE
            .with(|b| Reflect::get(b, &JsValue::from_str(name)))
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default()
    };
    Announced {
        text: field("text"),
        what: field("what"),
        note: field("note"),
        hits: field("hits"),
    }
}

/// Takes over `figevalDoc.announce`: from now on what the main app announces goes to `f`. The
/// closure must be kept for as long as it is to be called.
pub fn take_announce(
    mut f: impl FnMut(Announced) + 'static,
) -> Closure<dyn FnMut(String, String, String, String)> {
    let f =
        Closure::<dyn FnMut(String, String, String, String)>::new(move |text, what, note, hits| {
            f(Announced {
                text,
                what,
                note,
                hits,
            })
        });
    BRIDGE.with(|b| {
        let _ = Reflect::set(b, &JsValue::from_str("announce"), f.as_ref());
    });
    f
}

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the module runs in a page")
}

/// The PDF as the document strip (`pdf-panel`) says it is now.
pub fn pdf_now() -> Pdf {
    let panel = document()
        .query_selector("[data-testid=pdf-panel]")
        .ok()
        .flatten();
    let attr = |name: &str| {
        panel
            .as_ref()
            .and_then(|p| p.get_attribute(name))
            .unwrap_or_default()
    };
    Pdf::from_panel(&attr("data-status"), &attr("data-pages"))
}

/// The strip's attribute `name` (`""`: none).
fn strip_attribute(name: &str) -> String {
    document()
        .query_selector("[data-testid=pdf-panel]")
        .ok()
        .flatten()
        .and_then(|p| p.get_attribute(name))
        .unwrap_or_default()
}

/// The file name of the PDF on show, as the document strip (`pdf-panel`'s `data-name`) gives it
/// (`""`: none open).
pub fn pdf_name() -> String {
    strip_attribute("data-name")
}

/// Which set of PDFs is open and their names, as the strip's `data-set` and `data-names` (a
/// JSON list) give them (set 0 and no names: none opened yet).
pub fn pdf_set() -> (u32, Vec<std::rc::Rc<str>>) {
    let set = strip_attribute("data-set").parse().unwrap_or(0);
    let names = serde_json::from_str::<Vec<String>>(&strip_attribute("data-names"))
        .unwrap_or_default()
        .into_iter()
        .map(Into::into)
        .collect();
    (set, names)
}

/// Milliseconds since the page started.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

thread_local! {
    /// The viewer's exports, once resolved.
    static VIEWER: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// A JavaScript error as words.
fn error_text(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        String::from(err.message())
    } else {
        e.as_string().unwrap_or_else(|| format!("{e:?}"))
    }
}

/// The viewer's exports (loaded by boot.js when a PDF was opened).
async fn viewer() -> Result<JsValue, String> {
    if let Some(v) = VIEWER.with(|v| v.borrow().clone()) {
        return Ok(v);
    }
    let v = JsFuture::from(viewer_module())
        .await
        .map_err(|e| format!("the PDF viewer could not be loaded: {}", error_text(&e)))?;
    VIEWER.with(|slot| *slot.borrow_mut() = Some(v.clone()));
    Ok(v)
}

fn export(viewer: &JsValue, name: &str) -> Result<Function, String> {
    Reflect::get(viewer, &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| format!("the PDF viewer has no {name}()"))
}

/// The printed page labels of the open PDF `name` (the one on show: `None`), from the viewer's
/// `pageLabels()`, once the viewer is loaded and when the PDF has them.
pub fn page_labels(name: Option<&str>) -> Option<Vec<String>> {
    let v = VIEWER.with(|v| v.borrow().clone())?;
    let name = name.map_or(JsValue::UNDEFINED, JsValue::from_str);
    let labels = export(&v, "pageLabels").ok()?.call1(&v, &name).ok()?;
    let labels: Array = labels.dyn_into().ok()?;
    Some(
        labels
            .iter()
            .map(|l| l.as_string().unwrap_or_default())
            .collect(),
    )
}

/// The text of every page of the open PDF `name` (the one on show: `None`; index 0 = page 1),
/// from the viewer's `texts()`, and where each came from (its `sources`: a page with no text
/// layer is read by OCR, the pages in `first` before the others); `progress(done, total)` is
/// called as it goes.
pub async fn page_texts(
    mut progress: impl FnMut(u32, u32, Option<(Vec<String>, Vec<Source>)>) + 'static,
    first: &[u32],
    name: Option<&str>,
) -> Result<(Vec<String>, Vec<Source>), String> {
    let v = viewer().await?;
    let texts = export(&v, "texts")?;
    // While OCR reads, each call also brings the texts so far (a list, as the result is).
    let progress =
        Closure::<dyn FnMut(u32, u32, JsValue)>::new(move |done, total, so_far: JsValue| {
            progress(
                done,
                total,
                so_far.dyn_into::<Array>().ok().map(|a| texts_of(&a)),
            )
        });
    let first: Array = first.iter().map(|&p| JsValue::from(p)).collect();
    let name = name.map_or(JsValue::UNDEFINED, JsValue::from_str);
    let promise = texts
        .call3(&v, progress.as_ref(), &first, &name)
        .map_err(|e| error_text(&e))?
        .dyn_into::<js_sys::Promise>()
        .map_err(|_| "the PDF viewer's texts() gave no promise".to_string())?;
    let out = JsFuture::from(promise).await.map_err(|e| error_text(&e));
    drop(progress);
    let pages: Array = out?
        .dyn_into()
        .map_err(|_| "the PDF viewer's texts() gave no list".to_string())?;
    Ok(texts_of(&pages))
}

/// A list of page texts from the viewer, with its `sources`.
fn texts_of(pages: &Array) -> (Vec<String>, Vec<Source>) {
    let sources = Reflect::get(pages, &JsValue::from_str("sources"))
        .ok()
        .and_then(|s| s.dyn_into::<Array>().ok())
        .map(|s| s.iter().map(|v| source(&v)).collect())
        .unwrap_or_default();
    (
        pages
            .iter()
            .map(|p| p.as_string().unwrap_or_default())
            .collect(),
        sources,
    )
}

/// One entry of the viewer's `sources`: `null` the text layer, a number OCR's confidence, a
/// string why OCR could not read the page.
fn source(v: &JsValue) -> Source {
    if let Some(confidence) = v.as_f64() {
        Source::Ocr(confidence)
    } else if let Some(why) = v.as_string() {
        Source::Unreadable(why.into())
    } else {
        Source::Layer
    }
}

/// Asks the viewer to draw `img`'s page (its `data-thumb`) once it is on screen, from its
/// cache when it is there (the viewer's `watch()`).
pub fn watch_thumbnail(img: HtmlImageElement) {
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(v) = viewer().await else { return };
        if let Ok(watch) = export(&v, "watch") {
            let _ = watch.call1(&v, &img);
        }
    });
}

/// Moves keyboard focus to the heading of the view on show, unless focus is already in the
/// module (its own view buttons keep it).
pub fn focus_view_heading() {
    let doc = document();
    let inside = doc
        .active_element()
        .is_some_and(|e| e.closest("#doc-app").ok().flatten().is_some());
    if inside {
        return;
    }
    if let Some(h) = doc
        .query_selector("#doc-app .doc-view:not([hidden]) h3")
        .ok()
        .flatten()
    {
        let _ = h.set_attribute("tabindex", "-1");
        if let Some(h) = h.dyn_ref::<web_sys::HtmlElement>() {
            let _ = h.focus();
        }
    }
}
