//! The figeval connector module: a third WebAssembly module of the browser app, loaded by
//! `web/boot.js` only when another search API is asked for (the Deployment settings' "another
//! search API…"), so none of it is in the main bundle (and its 220 KB budget).
//!
//! It shows the connector dialog (`#connect-app` in web/index.html): a preset or a mapping of
//! one's own, checked as it is typed, the header values it needs (kept in memory only), and
//! *Try one question*, which shows what the mapping reads of each hit as `figeval probe` prints
//! it. Put in use, the connector is what the app's live run asks through (`ask.rs`; contract
//! §14.9).

#![forbid(unsafe_code)]

mod app;
mod ask;
mod state;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn main() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("connect-app"))
        .expect("index.html has <div id=connect-app>");
    yew::Renderer::<app::App>::with_root(root).render();
}

/// Opens the connector dialog (boot.js calls it on "another search API…").
#[wasm_bindgen]
pub fn show() {
    if let Some(d) = dialog() {
        if !d.open() {
            let _ = d.show_modal();
        }
    }
    app::refresh();
}

/// The dialog element of web/index.html.
pub(crate) fn dialog() -> Option<web_sys::HtmlDialogElement> {
    web_sys::window()?
        .document()?
        .query_selector("[data-testid=connect-dialog]")
        .ok()??
        .dyn_into()
        .ok()
}
