//! The workbench's components, one per file.

pub mod app;
pub mod code_area;
pub mod dataset_panel;
pub mod offline_panel;
pub mod open_report_panel;
pub mod run_panel;
pub mod settings_panel;

pub use figeval_web_common::{file_drop, file_picker};
