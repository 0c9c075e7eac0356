//! What both WebAssembly modules of the browser app share — the app (`web/`) and the document
//! module (`web/doc/`): reading a picked file and offering a download ([`files`]), the
//! bundled example datasets ([`datasets`]), and [`shared::Shared`], an `Rc` compared by
//! identity so a large value can be a Yew prop. No figeval logic lives here.

#![forbid(unsafe_code)]

pub mod datasets;
pub mod files;
pub mod shared;
