//! What the WebAssembly modules of the browser app share — the app (`web/`), the workbench
//! (`web/work/`), the document module (`web/doc/`) and the runs module (`web/runs/`): reading a
//! picked or dropped file and offering a download ([`files`], [`file_picker`], [`file_drop`]),
//! the bundled example datasets ([`datasets`]), [`shared::Shared`], an `Rc` compared by
//! identity so a large value can be a Yew prop, the one wrapper of a table that scrolls sideways
//! ([`table_scroll`]), the views' text formatting ([`format`]), moving keyboard focus
//! ([`focus`]), what a report's matches said as the app and the workbench hand it over
//! ([`said`]), a report open in the page ([`open_report`]) with its ranked windows
//! ([`ranked_window`]), and share links ([`link`], [`share_panel`]), which the app's report
//! view and the runs module's compare view both show, with the short link of `figeval serve`
//! ([`short_link`]), and the team server's API ([`api`]).
//! No figeval logic lives here.

#![forbid(unsafe_code)]

pub mod api;
pub mod checked;
pub mod datasets;
pub mod demo;
pub mod file_drop;
pub mod file_picker;
pub mod files;
pub mod focus;
pub mod format;
pub mod link;
pub mod nested;
pub mod open_report;
pub mod ranked_window;
pub mod said;
pub mod share_panel;
pub mod shared;
pub mod short_link;
pub mod table_scroll;
