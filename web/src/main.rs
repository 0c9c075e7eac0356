//! The figeval browser app: load a dataset, run it live against a deployment or score saved
//! responses, read the report, share it as a link, compare two reports.
//!
//! Every number comes from the `figeval` crate compiled to WebAssembly; this crate only does
//! the browser's I/O and lays the numbers out. Pure parts (the reducer, settings, request and
//! response judging, formatting, filtering) have native unit tests: `cargo test -p figeval-web`.

#![forbid(unsafe_code)]

mod answers;
mod browser;
mod components;
mod datasets;
mod filter;
mod format;
mod runner;
mod scoring;
mod search;
mod settings;
mod shared;
mod state;

fn main() {
    yew::Renderer::<components::app::App>::new().render();
}
