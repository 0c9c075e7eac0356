//! The figeval runs module: a fourth WebAssembly module of the browser app, loaded by
//! `web/boot.js` once two reports or more are compared, so none of it is in the main bundle (and
//! its 220 KB budget).
//!
//! It renders into two places of the app's Compare view. Into `#runs-app`, below the finding
//! and the reports compared: the comparison's tables, by scope, as `figeval compare` prints them
//! (the two-report view, or every run against the baseline). Into `#runs-more`, below the
//! questions that changed: each scope's ranking metrics (nDCG and recall at 5 and 10) for every
//! compared report with each run's change from the baseline
//! (`figeval::compare::compare_ranked`), and the items × runs table, which sorts and filters
//! the questions by group, by hit or miss on a metric in each run, and by first-hit rank. The
//! app hands the reports over through boot.js's `figevalRuns` (web/README.md, "The runs
//! module").

#![forbid(unsafe_code)]

mod app;
mod state;
mod tables;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use web_sys::Element;
use yew::AppHandle;

/// A view rendered, and the element it renders into.
type Mounted<C> = Option<(Element, AppHandle<C>)>;

thread_local! {
    /// The two views.
    static MOUNTED: RefCell<(Mounted<app::Tables>, Mounted<app::More>)> =
        const { RefCell::new((None, None)) };
}

/// Renders `C` into the element with `id`, unless it is already there: the app re-creates
/// its Compare view's elements when the view changes shape, and a view rendered into an element
/// that left the page is dropped.
fn mount<C: yew::BaseComponent<Properties = ()>>(id: &str, slot: &mut Mounted<C>) {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    else {
        return;
    };
    if slot.as_ref().is_some_and(|(at, _)| *at == root) {
        return;
    }
    if let Some((_, old)) = slot.take() {
        old.destroy();
    }
    let handle = figeval_web_common::nested::render::<C>(root.clone());
    *slot = Some((root, handle));
}

fn main() {
    // Nothing yet: boot.js calls `update` once the module is loaded, and after each
    // announcement.
}

/// Reads what the app announced again (boot.js calls it after each announcement), and renders
/// the views into the Compare view's elements wherever they are now.
#[wasm_bindgen]
pub fn update() {
    app::refresh();
    MOUNTED.with(|m| {
        let (tables, more) = &mut *m.borrow_mut();
        mount("runs-app", tables);
        mount("runs-more", more);
    });
}
