//! The figeval browser app: load a dataset, run it live against a deployment or score saved
//! responses, read the report, share it as a link, compare two reports.
//!
//! Every number comes from the `figeval` crate compiled to WebAssembly; this crate only does
//! the browser's I/O and lays the numbers out. Pure parts (the reducer, settings, request and
//! response judging, formatting, filtering) have native unit tests: `cargo test -p figeval-web`.

#![forbid(unsafe_code)]

mod browser;
mod checked;
mod components;
mod filter;
mod format;
mod runner;
mod scoring;
mod search;
mod settings;
mod state;

use figeval_web_common::{datasets, files, shared};

fn main() {
    // The app renders into `#app`, beside the document strip of index.html (which is not the
    // app's: boot.js and the PDF viewer run it).
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"))
        .expect("index.html has <div id=app>");
    yew::Renderer::<components::app::App>::with_root(root).render();
}
