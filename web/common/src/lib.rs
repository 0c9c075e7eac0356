//! What the WebAssembly modules of the browser app share — the app (`web/`), the workbench
//! (`web/work/`), the document module (`web/doc/`) and the runs module (`web/runs/`): reading a
//! picked or dropped file and offering a download ([`files`], [`file_picker`], [`file_drop`]),
//! the bundled example datasets ([`datasets`]), [`shared::Shared`], an `Rc` compared by
//! identity so a large value can be a Yew prop, the one wrapper of a table that scrolls sideways
//! ([`table_scroll`]), the views' text formatting ([`format`]), moving keyboard focus
//! ([`focus`]) and what a report's matches said as the app and the workbench hand it over
//! ([`said`]). No figeval logic lives here.

#![forbid(unsafe_code)]

pub mod checked;
pub mod datasets;
pub mod demo;
pub mod file_drop;
pub mod file_picker;
pub mod files;
pub mod focus;
pub mod format;
pub mod nested;
pub mod said;
pub mod shared;
pub mod table_scroll;
