//! The app's side of the runs module's bridge (web/README.md, "The runs module"), through
//! boot.js's `globalThis.figevalRuns`. The app says which view is on show and whether a report
//! is (the module loads once the Compare or Runs view is shown), and puts the report on show in
//! a comparison slot; the module asks for that report ([`runs_current`]), says how many reports
//! it compares ([`runs_compared`]) and shows its failures in the app's banner (boot.js hands it
//! [`crate::work_banner`]). Each report shown here is kept in this browser (boot.js's
//! `figevalKept`, IndexedDB), for the Runs view. Thin wrappers; nothing here decides a number.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::state::{Action, OpenReport, View};

#[wasm_bindgen]
extern "C" {
    /// Tells boot.js the view on show (`workbench`, `report`, `compare`) and whether a report
    /// is on show; boot.js loads the module while the Compare view is shown.
    #[wasm_bindgen(js_namespace = figevalRuns, js_name = shown)]
    fn shown(view: &str, current: bool);
    /// Puts the report on show in the comparison's `before` or `after` slot.
    #[wasm_bindgen(js_namespace = figevalRuns, js_name = put)]
    fn put_in(slot: &str);
    /// Has the runs module push the report on show (for its short link).
    #[wasm_bindgen(js_namespace = figevalRuns, js_name = push)]
    fn push_on_show();
    /// Keeps a report shown here in this browser (IndexedDB, the last 50: the Runs view's list
    /// without a server).
    #[wasm_bindgen(js_namespace = figevalKept, js_name = keep)]
    fn keep(name: &str, text: &str);
}

thread_local! {
    /// The report on show, for [`runs_current`].
    static CURRENT: RefCell<Option<OpenReport>> = const { RefCell::new(None) };
}

/// Tells the runs module what is on show: the view, and the report the report view shows. A
/// report newly on show is kept in this browser, once the page has drawn it.
pub fn tell(view: View, report: Option<&OpenReport>) {
    let new = CURRENT.with(|c| c.replace(report.cloned()).map(|o| o.key) != report.map(|o| o.key));
    if let Some(o) = report.filter(|_| new).cloned() {
        gloo_timers::callback::Timeout::new(0, move || {
            keep(&o.name, &o.report.to_json_pretty());
        })
        .forget();
    }
    let name = match view {
        View::Workbench => "workbench",
        View::Report => "report",
        View::Compare => "compare",
        View::Runs => "runs",
    };
    shown(name, report.is_some());
}

/// Puts the report on show in the comparison (`before` or `after`): the runs module takes it.
pub fn put(slot: &'static str) {
    put_in(slot);
}

/// Has the runs module push the report on show to the team server; it answers through
/// [`app_pushed`].
pub fn push_current() {
    push_on_show();
}

/// The runs module pushed the report with `key` as run `id`, or could not (`error`, in words).
#[wasm_bindgen]
pub fn app_pushed(key: f64, id: String, error: String) {
    let result = if error.is_empty() { Ok(id) } else { Err(error) };
    crate::work::dispatch(Action::Pushed {
        key: key as u64,
        result,
    });
}

/// The report on show, for the runs module: its name, its JSON, what its matches said (`""`:
/// not known), its key and its stored run's id (`""`: none); `undefined` when none is.
#[wasm_bindgen]
pub fn runs_current() -> Option<js_sys::Array> {
    CURRENT.with(|c| {
        c.borrow().as_ref().map(|o| {
            let said = o
                .said
                .as_ref()
                .map_or_else(String::new, |s| crate::said::to_json(s));
            let key = JsValue::from_f64(o.key as f64);
            let run = o.stored.as_ref().map_or("", |s| &s.id);
            [o.name.to_string(), o.report.to_json_pretty(), said]
                .iter()
                .map(|s| JsValue::from_str(s))
                .chain([key, JsValue::from_str(run)])
                .collect()
        })
    })
}

/// The runs module's compare view holds `n` reports; `show`: it took them from the Runs view,
/// so the Compare view is shown.
#[wasm_bindgen]
pub fn runs_compared(n: u32, show: bool) {
    crate::work::dispatch(Action::Compared(n));
    if show {
        crate::work::dispatch(Action::Show(View::Compare));
    }
}

/// What `GET api/session` answered (`""`: no figeval server serves the page): boot.js asks at
/// start and after a sign-in or out.
#[wasm_bindgen]
pub fn app_session(text: String) {
    crate::work::dispatch(Action::Session(figeval_web_common::api::may_push(&text)));
}
