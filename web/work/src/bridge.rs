//! The workbench's side of its bridge to the app (web/README.md, "The workbench module"),
//! through boot.js's `globalThis.figevalWork`: what the app says (whether the document check
//! reads the workbench's dataset, the corpus of the report open), and what the workbench hands
//! over (reports, banners, report files opened here). Thin wrappers; nothing here decides a
//! number.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use yew::UseReducerDispatcher;

use crate::state::{capture_text, Action, Banner, CaptureLines, Checked, Handed, WorkState};

#[wasm_bindgen]
extern "C" {
    /// boot.js's bridge object, `globalThis.figevalWork`.
    #[wasm_bindgen(thread_local_v2, js_name = figevalWork)]
    static BRIDGE: JsValue;
    /// Hands a report to the app: its name, its JSON, what its matches said (`""`: not
    /// known), its key (`0`: no files kept here) and whether a capture is kept.
    #[wasm_bindgen(js_namespace = figevalWork, js_name = report)]
    fn hand_report(name: &str, text: &str, said: &str, key: u32, capture: bool);
    /// Shows `title` and `detail` (`more` folded away, `""`: none) in the app's banner, as
    /// message `n`; an empty title clears it.
    #[wasm_bindgen(js_namespace = figevalWork, js_name = banner)]
    fn hand_banner(title: &str, detail: &str, more: &str, n: u32);
}

/// The files of the last report handed over, kept for the app's download buttons.
struct Kept {
    key: u32,
    stem: String,
    capture: Option<CaptureLines>,
    trec: crate::scoring::Trec,
}

thread_local! {
    /// The workbench's dispatcher, once it runs.
    static DISPATCH: RefCell<Option<UseReducerDispatcher<WorkState>>> = const { RefCell::new(None) };
    /// What [`file`] hands out.
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// Registers the running workbench's dispatcher, and tells it what the app last said.
pub fn attach(d: UseReducerDispatcher<WorkState>) {
    d.dispatch(Action::Checked(said_by_app()));
    DISPATCH.with(|s| *s.borrow_mut() = Some(d));
}

/// What the app last said through `figevalWork.checked(here, corpus)`.
fn said_by_app() -> Checked {
    let field = |name: &str| BRIDGE.with(|b| Reflect::get(b, &JsValue::from_str(name)).ok());
    Checked {
        here: field("here").and_then(|v| v.as_bool()).unwrap_or(false),
        report_corpus: field("corpus")
            .and_then(|v| v.as_string())
            .filter(|c| !c.is_empty())
            .map(Rc::from),
    }
}

/// Tells the running workbench what the app last said (after each word from the app).
pub fn heard() {
    if let Some(d) = DISPATCH.with(|d| d.borrow().clone()) {
        d.dispatch(Action::Checked(said_by_app()));
    }
}

/// Hands a report scored here to the app, and keeps its files for [`file`].
pub fn hand(h: &Handed) {
    let capture = h.capture.is_some();
    KEPT.with(|k| {
        *k.borrow_mut() = Some(Kept {
            key: h.key,
            stem: crate::format::file_stem(&h.report.corpus_id),
            capture: h.capture.clone(),
            trec: h.trec.clone(),
        })
    });
    hand_report(
        &h.name,
        &h.report.to_json_pretty(),
        &crate::said::to_json(&h.said),
        h.key,
        capture,
    );
}

/// Hands a report file opened here to the app, which reads it (or refuses it).
pub fn open_report(name: &str, text: &str) {
    hand_report(name, text, "", 0, false);
}

/// Hands a banner message to the app (`None`: clear the banner).
pub fn banner(n: u32, b: &Option<Banner>) {
    match b {
        Some(b) => hand_banner(&b.title, &b.detail, b.more.as_deref().unwrap_or(""), n),
        None => hand_banner("", "", "", n),
    }
}

/// Downloads one file of the report handed over with `key`: `capture` (a live run's),
/// or the standard run files `run`, `qrels`, `queries` (made on the first ask). Answers `""`
/// when it was downloaded, else why not (the core's reason the run files cannot be written).
#[wasm_bindgen]
pub fn file(key: u32, which: &str) -> String {
    KEPT.with(|k| {
        let k = k.borrow();
        let Some(kept) = k.as_ref().filter(|k| k.key == key) else {
            return "this report's files are no longer kept: score it again".into();
        };
        let stem = &kept.stem;
        if which == "capture" {
            if let Some(c) = &kept.capture {
                crate::browser::download(
                    &format!("figeval-capture-{stem}.jsonl"),
                    "application/x-ndjson",
                    &capture_text(c),
                );
            }
            return String::new();
        }
        match kept.trec.get() {
            Ok(files) => {
                let (name, text) = match which {
                    "run" => (format!("figeval-run-{stem}.txt"), &files.run),
                    "qrels" => (format!("figeval-qrels-{stem}.txt"), &files.qrels),
                    _ => (format!("figeval-queries-{stem}.jsonl"), &files.queries),
                };
                crate::browser::download(&name, "text/plain", text);
                String::new()
            }
            Err(reason) => reason.clone(),
        }
    })
}
