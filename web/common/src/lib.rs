//! What the WebAssembly modules of the browser app share — the app (`web/`), the document
//! module (`web/doc/`) and the runs module (`web/runs/`): reading a picked file and offering a
//! download ([`files`]), the bundled example datasets ([`datasets`]), [`shared::Shared`], an
//! `Rc` compared by identity so a large value can be a Yew prop, and the one wrapper of a table
//! that scrolls sideways ([`table_scroll`]). No figeval logic lives here.

#![forbid(unsafe_code)]

pub mod datasets;
pub mod files;
pub mod shared;
pub mod table_scroll;
