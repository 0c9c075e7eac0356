//! The figeval browser app: read a report and share it as a link. What a shared report needs
//! is here, loaded first; the workbench (dataset, live run, offline scoring) is a module of its
//! own, `web/work`, loaded when it is opened, which hands the reports it scores to this app
//! (`work`); the comparison of reports is the runs module's, `web/runs`, loaded when the
//! Compare view is shown (`runs`).
//!
//! Every number comes from the `figeval` crate compiled to WebAssembly; this crate only does
//! the browser's I/O and lays the numbers out. Pure parts (the reducer, formatting, filtering)
//! have native unit tests: `cargo test -p figeval-web`.

#![forbid(unsafe_code)]

mod browser;
mod checked;
mod components;
mod filter;
mod runs;
mod state;
mod work;

use figeval_web_common::{files, format, said, shared};

pub use runs::{app_pushed, app_session, runs_compared, runs_current};
pub use work::{work_banner, work_report};

/// Whether two file paths name the same file, by the core's rule (whole trailing path
/// components, [`figeval::files::same_file`]): boot.js hands it to the PDF viewer as
/// `globalThis.figevalSameFile`, which finds the open PDF a location's or a match's path names.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn same_file(a: &str, b: &str) -> bool {
    figeval::files::same_file(a, b)
}

fn main() {
    // The app renders into `#app`, beside the document strip of index.html (which is not the
    // app's: boot.js and the PDF viewer run it).
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"))
        .expect("index.html has <div id=app>");
    yew::Renderer::<components::app::App>::with_root(root).render();
}
