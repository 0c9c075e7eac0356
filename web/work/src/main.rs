//! The figeval workbench module: a WebAssembly module of the browser app loaded by `web/boot.js`
//! when the workbench (*Run & score*) is opened, so none of it is in what a shared report
//! fetches before it is shown (web/README.md, "The workbench module").
//!
//! It renders the workbench into the app's `#work-app`: the dataset (bundled, a file, a URL or
//! pasted, checked by `figeval::Dataset::parse`), the deployment settings, the live run
//! (`runner`, asking the deployment as `figeval run` does) and offline scoring of saved
//! responses (`scoring`), and the card that opens a report file. Each report it scores — and
//! each report file opened here — goes to the app through boot.js's `figevalWork`, which shows
//! it in its report view; the capture and standard run files of a report scored here stay
//! here, and the app asks for them by the report's key (`file`). Pure parts (the reducer,
//! settings, request and response judging, scoring) have native unit tests:
//! `cargo test -p figeval-work`.

#![forbid(unsafe_code)]

mod bridge;
mod browser;
mod checked;
mod components;
mod runner;
mod scoring;
mod search;
mod settings;
mod state;

use std::cell::RefCell;

use figeval_web_common::{datasets, files, format, said, shared};
use wasm_bindgen::prelude::*;
use yew::AppHandle;

pub use bridge::file;

thread_local! {
    /// The workbench, once rendered into `#work-app`.
    static MOUNTED: RefCell<Option<AppHandle<components::app::App>>> = const { RefCell::new(None) };
}

fn main() {
    // Nothing yet: boot.js calls `update` once the module is loaded, and after each word from
    // the app.
}

/// Renders the workbench into the app's `#work-app` (once), and tells it what the app last
/// said (boot.js calls this once the module is loaded, and after each word from the app).
#[wasm_bindgen]
pub fn update() {
    MOUNTED.with(|m| figeval_web_common::nested::mount_once("work-app", m));
    bridge::heard();
}
