//! The figeval document module: a second WebAssembly module of the browser app, loaded by
//! `web/boot.js` only when a PDF is opened or one of its views is asked for, so none of it is in
//! the main bundle (and its 220 KB budget).
//!
//! It reads the open PDF's page texts from the viewer (`web/pdfview.mjs`) and runs figeval's
//! document crate on them — `figeval_document::ground` for the dataset-check panel,
//! `figeval_document::find_captions` for the caption list — against the main app's dataset, which boot.js hands over. It renders into
//! `#doc-app` (web/index.html). How the two sides talk: web/README.md, "The document module".

#![forbid(unsafe_code)]

mod app;
mod bridge;
mod caption_list;
mod draft;
mod editor;
mod ground_panel;
mod provenance_panel;
mod state;
mod thumb;

use figeval_web_common::{datasets, files, shared};

fn main() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("doc-app"))
        .expect("index.html has <div id=doc-app>");
    yew::Renderer::<app::App>::with_root(root).render();
}
