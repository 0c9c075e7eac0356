//! The figeval runs module: a WebAssembly module of the browser app, loaded by `web/boot.js`
//! when the Compare or the Runs view is shown (a `#compare=` or `#runs=` link opens the first),
//! so none of it is in what a shared report fetches before it is shown (web/README.md, "The
//! runs module").
//!
//! It renders the Compare view into the app's `#compare-app` (`compare_view`): the reports
//! compared, from files, a `#compare=` link or the app's report on show (which the app's
//! *Compare: use as before/after* puts in a slot, `put`), the finding, the comparison's tables
//! by scope (`tables`: the two-report view, or every run against the baseline), the questions
//! that changed with their ranked windows side by side, each scope's ranking metrics and the
//! items × runs table (`more`, `state`), and the comparison's share link. It renders the Runs
//! view into `#runs-app` (`runs_view`): the runs the team server stores (`history`, `listing`),
//! filtered and paged, the runs kept in this browser (`kept`), a metric's trend over one
//! dataset (`trend`), and runs picked to compare. Its failures go to the app's banner, through
//! boot.js's `figevalRuns` (`bridge`). Pure parts (the reducer, the
//! ranking rows, the items × runs rows) have native unit tests: `cargo test -p figeval-runs`.

#![forbid(unsafe_code)]

mod bridge;
mod compare_view;
mod compared;
mod history;
mod kept;
mod listing;
mod more;
mod runs_view;
mod state;
mod tables;
mod trend;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use yew::AppHandle;

thread_local! {
    /// The Compare view, once rendered into `#compare-app`.
    static COMPARE: RefCell<Option<AppHandle<compare_view::CompareView>>> = const { RefCell::new(None) };
    /// The Runs view, once rendered into `#runs-app`.
    static RUNS: RefCell<Option<AppHandle<runs_view::RunsView>>> = const { RefCell::new(None) };
}

fn main() {
    // Nothing yet: boot.js calls `update` once the module is loaded, and after each word from
    // the app.
}

/// Renders the Compare view into the app's `#compare-app` and the Runs view into its
/// `#runs-app` (once), and has them read what the app last said (boot.js calls this once the
/// module is loaded, and after each word from the app).
#[wasm_bindgen]
pub fn update() {
    COMPARE.with(|m| figeval_web_common::nested::mount_once("compare-app", m));
    RUNS.with(|m| figeval_web_common::nested::mount_once("runs-app", m));
    bridge::heard();
}

thread_local! {
    /// The app's reports pushed from here: the app's key and the run's id (`None` while on its
    /// way), so a report is pushed once.
    static PUSHED: RefCell<Vec<(f64, Option<String>)>> = const { RefCell::new(Vec::new()) };
}

/// Pushes the app's report on show to the team server (its Share card's short link) and tells
/// the app its run's id, or why not; a report pushed before (or on its way) is not pushed again.
#[wasm_bindgen]
pub fn push() {
    let (open, key) = match bridge::current_keyed() {
        Ok(Some(got)) => got,
        Ok(None) => return,
        Err(b) => return bridge::pushed(0.0, Err(b.detail)),
    };
    let known = PUSHED.with(|p| {
        p.borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, id)| id.clone())
    });
    match known {
        Some(Some(id)) => return bridge::pushed(key, Ok(id)),
        Some(None) => return,
        None => PUSHED.with(|p| p.borrow_mut().push((key, None))),
    }
    wasm_bindgen_futures::spawn_local(async move {
        let result = figeval_web_common::short_link::push(&open).await;
        PUSHED.with(|p| {
            let mut p = p.borrow_mut();
            p.retain(|(k, _)| *k != key);
            if let Ok(id) = &result {
                p.push((key, Some(id.clone())));
            }
        });
        bridge::pushed(key, result);
    });
}

/// The app put its report on show in the comparison's `before` or `after` slot.
#[wasm_bindgen]
pub fn put(slot: &str) {
    let slot = match slot {
        "after" => compared::Slot::After,
        _ => compared::Slot::Before,
    };
    compare_view::put(slot);
}
