//! The runs module's side of its bridge to the app (web/README.md, "The runs module"), through
//! boot.js's `globalThis.figevalRuns`: what the app says (the view on show, whether a report is
//! on show), the report on show when the compare view takes it, and what the module tells the
//! app (its failures for the banner, how many reports it compares). Thin wrappers; nothing here
//! decides a number.

use std::cell::RefCell;

use figeval_web_common::open_report::{OpenReport, Stored};
use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::compared::{Action, Banner, CompareState};

#[wasm_bindgen]
extern "C" {
    /// boot.js's bridge object, `globalThis.figevalRuns`.
    #[wasm_bindgen(thread_local_v2, js_name = figevalRuns)]
    static BRIDGE: JsValue;
    /// The app's report on show: `[name, JSON, what its matches said]`, or `undefined`.
    #[wasm_bindgen(js_namespace = figevalRuns, js_name = current)]
    fn app_current() -> JsValue;
    /// Shows `title` and `detail` (`more` folded away, `""`: none) in the app's banner; an
    /// empty title clears it.
    #[wasm_bindgen(js_namespace = figevalRuns, js_name = banner)]
    fn app_banner(title: &str, detail: &str, more: &str, n: u32);
    /// Tells the app its report with `key` was pushed as run `id`, or why not (`error`).
    #[wasm_bindgen(js_namespace = figevalRuns, js_name = pushed)]
    fn app_pushed(key: f64, id: &str, error: &str);
    /// Tells the app how many reports the compare view holds, and whether to show it.
    #[wasm_bindgen(js_namespace = figevalRuns, js_name = compared)]
    fn app_compared(n: u32, show: bool);
    /// boot.js's `figevalServer`: whether figeval serve serves the page, and its session.
    #[wasm_bindgen(thread_local_v2, js_name = figevalServer)]
    static SERVER: JsValue;
    /// Asks `GET api/session` again (after a sign-in or out) and tells the app and this module.
    #[wasm_bindgen(js_namespace = figevalServer, js_name = ask)]
    fn ask_server() -> js_sys::Promise;
    /// Shows a report in the app's report view: its name and JSON (the app's `work_report`
    /// with key 0: no files kept).
    #[wasm_bindgen(js_namespace = figevalRuns, js_name = report)]
    fn app_report(name: &str, text: &str, said: &str, key: u32, capture: bool);
}

thread_local! {
    /// The compare view's dispatcher, once it runs.
    static DISPATCH: RefCell<Option<UseReducerDispatcher<CompareState>>> = const { RefCell::new(None) };
    /// What arrived before the view ran.
    static PENDING: RefCell<Vec<Action>> = const { RefCell::new(Vec::new()) };
    /// Re-render each mounted view when the app says something (registered by the views).
    static HEARD: RefCell<Vec<Callback<()>>> = const { RefCell::new(Vec::new()) };
}

/// Registers the running view's dispatcher and hands it what arrived before.
pub fn attach(d: UseReducerDispatcher<CompareState>) {
    for a in PENDING.with(|p| std::mem::take(&mut *p.borrow_mut())) {
        d.dispatch(a);
    }
    DISPATCH.with(|s| *s.borrow_mut() = Some(d));
}

/// Hands `action` to the compare view (kept until it runs).
pub fn send(action: Action) {
    match DISPATCH.with(|d| d.borrow().clone()) {
        Some(d) => d.dispatch(action),
        None => PENDING.with(|p| p.borrow_mut().push(action)),
    }
}

/// Re-renders the view that calls it each time the app (or boot.js) says something, so it reads
/// what was said ([`view`], [`has_current`], [`server_text`]).
#[hook]
pub fn use_heard() {
    let update = use_force_update();
    use_effect_with((), move |()| {
        let cb = Callback::from(move |()| update.force_update());
        HEARD.with(|h| h.borrow_mut().push(cb.clone()));
        move || HEARD.with(|h| h.borrow_mut().retain(|c| *c != cb))
    });
}

/// The app said something: each view re-renders and reads it.
pub fn heard() {
    for cb in HEARD.with(|h| h.borrow().clone()) {
        cb.emit(());
    }
}

fn field(name: &str) -> Option<JsValue> {
    BRIDGE.with(|b| Reflect::get(b, &JsValue::from_str(name)).ok())
}

/// The view on show, as the app last said it (`workbench`, `report`, `compare`).
pub fn view() -> String {
    field("view")
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// What `GET api/session` last answered: `None` while it is asked, `""` when no figeval server
/// serves the page, else the session's JSON.
pub fn server_text() -> Option<String> {
    SERVER.with(|s| {
        Reflect::get(s, &JsValue::from_str("text"))
            .ok()?
            .as_string()
    })
}

/// Asks for the session again; the app and this module hear the answer.
pub async fn session_changed() {
    let _ = wasm_bindgen_futures::JsFuture::from(ask_server()).await;
}

/// Whether the app shows a report (the compare view can take it).
pub fn has_current() -> bool {
    field("has").and_then(|v| v.as_bool()).unwrap_or(false)
}

/// The app's report on show, read again here (`Report::parse`), with what its matches said;
/// `None` when none is on show or it cannot be read.
pub fn current() -> Result<Option<OpenReport>, Banner> {
    current_keyed().map(|o| o.map(|(o, _)| o))
}

/// [`current`], with the app's key of the report.
pub fn current_keyed() -> Result<Option<(OpenReport, f64)>, Banner> {
    let got = app_current();
    if got.is_undefined() || got.is_null() {
        return Ok(None);
    }
    let parts = js_sys::Array::from(&got);
    let key = parts.get(3).as_f64().unwrap_or(0.0);
    let run = parts.get(4).as_string().filter(|id| !id.is_empty());
    let parts: Vec<String> = parts
        .iter()
        .take(3)
        .map(|v| v.as_string().unwrap_or_default())
        .collect();
    let [name, text, said] = <[String; 3]>::try_from(parts).map_err(|_| Banner {
        title: "The report on show could not be compared".into(),
        detail: "the app handed it over in a shape this module does not know".into(),
        more: None,
    })?;
    let report =
        figeval_web_common::open_report::read_report(&name, &text).map_err(|e| Banner {
            title: e.title,
            detail: e.detail,
            more: None,
        })?;
    let said =
        figeval_web_common::said::from_json(&said).map(figeval_web_common::shared::Shared::new);
    Ok(Some((
        OpenReport {
            said,
            stored: run.map(|id| {
                std::rc::Rc::new(Stored {
                    id,
                    labels: Vec::new(),
                })
            }),
            ..OpenReport::new(&name, report)
        },
        key,
    )))
}

/// Tells the app the report with its `key` was pushed as run `id`, or why not.
pub fn pushed(key: f64, result: Result<String, String>) {
    match result {
        Ok(id) => app_pushed(key, &id, ""),
        Err(e) => app_pushed(key, "", &e),
    }
}

/// Shows a failure in the app's banner (`None` clears it).
pub fn banner(b: Option<&Banner>) {
    match b {
        Some(b) => app_banner(&b.title, &b.detail, b.more.as_deref().unwrap_or(""), 0),
        None => app_banner("", "", "", 0),
    }
}

/// Tells the app how many reports are compared, and whether to show the Compare view.
pub fn compared(n: usize, show: bool) {
    app_compared(u32::try_from(n).unwrap_or(u32::MAX), show);
}

/// Shows a report in the app's report view, which reads it as a report file.
pub fn show_report(name: &str, text: &str) {
    app_report(name, text, "", 0, false);
}
