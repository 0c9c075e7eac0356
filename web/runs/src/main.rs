//! The figeval runs module: a fourth WebAssembly module of the browser app, loaded by
//! `web/boot.js` once two reports or more are compared, so none of it is in the main bundle (and
//! its 280 KB budget).
//!
//! It renders into `#runs-app` (web/index.html), below the Compare view: each scope's ranking
//! metrics (nDCG and recall at 5 and 10) for every compared report with each run's change from
//! the baseline, as `figeval compare` prints them (`figeval::compare::compare_ranked`), and the
//! items × runs table, which sorts and filters the questions by group, by hit or miss on a
//! metric in each run, and by first-hit rank. The app hands the reports over through boot.js's
//! `figevalRuns` (web/README.md, "The runs module").

#![forbid(unsafe_code)]

mod app;
mod state;

use wasm_bindgen::prelude::*;

fn main() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("runs-app"))
        .expect("index.html has <section id=runs-app>");
    yew::Renderer::<app::App>::with_root(root).render();
}

/// Reads what the app announced again (boot.js calls it after each announcement).
#[wasm_bindgen]
pub fn update() {
    app::refresh();
}
