//! The app's side of the workbench bridge (web/README.md, "The workbench module"), through
//! boot.js's `globalThis.figevalWork`. The app says whether the workbench is wanted (its view
//! is on show, or the Document view reads its dataset) and what the document check reads; the
//! workbench hands over the reports it scores or opens and its banner messages, which boot.js
//! passes to [`work_report`] and [`work_banner`]; the app asks it for the files of a report it
//! scored ([`file`]). Thin wrappers; nothing here decides a number.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use yew::UseReducerDispatcher;

use crate::state::{Action, AppState, Banner, WorkFiles};

#[wasm_bindgen]
extern "C" {
    /// Tells boot.js whether the workbench is wanted now (`load`: it loads it), whether the
    /// document check reads its dataset (`here`) and the corpus of the report open (`""`: none).
    #[wasm_bindgen(js_namespace = figevalWork, js_name = shown)]
    fn shown(load: bool, here: bool, corpus: &str);
    /// Asks the workbench to download a file of the report with `key`: a promise of `""`, or
    /// why not.
    #[wasm_bindgen(js_namespace = figevalWork, js_name = file)]
    fn ask_file(key: u32, which: &str) -> js_sys::Promise;
}

thread_local! {
    /// Where what the workbench hands over goes, once the app runs.
    static DISPATCH: RefCell<Option<UseReducerDispatcher<AppState>>> = const { RefCell::new(None) };
}

/// Registers the app's dispatcher for what the workbench hands over.
pub fn attach(d: UseReducerDispatcher<AppState>) {
    DISPATCH.with(|s| *s.borrow_mut() = Some(d));
}

pub(crate) fn dispatch(action: Action) {
    if let Some(d) = DISPATCH.with(|d| d.borrow().clone()) {
        d.dispatch(action);
    }
}

/// Tells the workbench what it must know (see [`shown`]).
pub fn tell(load: bool, here: bool, report_corpus: Option<&str>) {
    shown(load, here, report_corpus.unwrap_or(""));
}

/// A report from the workbench: its name, JSON, what its matches said (`""`: not known), its
/// key (`0`: a report file, whose files the workbench does not keep) and whether a live run's
/// capture is kept.
#[wasm_bindgen]
pub fn work_report(name: String, text: String, said: String, key: u32, capture: bool) {
    if key == 0 {
        return dispatch(Action::OpenReport { name, text });
    }
    dispatch(Action::WorkReport {
        name,
        text,
        said: crate::said::from_json(&said).map(crate::shared::Shared::new),
        files: WorkFiles {
            key,
            capture,
            unavailable: None,
        },
    });
}

/// The workbench's banner message `n` (an empty title clears the banner; `more` `""`: none).
#[wasm_bindgen]
pub fn work_banner(title: String, detail: String, more: String, n: u32) {
    let banner = (!title.is_empty()).then(|| Banner {
        title,
        detail,
        more: (!more.is_empty()).then_some(more),
    });
    dispatch(Action::WorkBanner { n, banner });
}

/// Downloads a file of the report with `key` from the workbench: `capture`, or the standard run
/// files `run`, `qrels` and `queries`; when they cannot be written, the report view says why.
pub fn file(key: u32, which: &'static str) {
    wasm_bindgen_futures::spawn_local(async move {
        let answer = JsFuture::from(ask_file(key, which)).await;
        let reason = match answer {
            Ok(v) => v.as_string().unwrap_or_default(),
            Err(e) => crate::files::js_error_text(&e),
        };
        if !reason.is_empty() {
            dispatch(Action::FilesUnavailable { key, reason });
        }
    });
}
