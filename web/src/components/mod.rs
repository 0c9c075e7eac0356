//! The app's components, one per file.

pub mod app;
pub mod bar_chart;
pub mod code_area;
pub mod compare_view;
pub mod dataset_panel;
pub mod error_banner;
pub mod file_drop;
pub mod file_picker;
pub mod group_table;
pub mod item_row;
pub mod items_list;
pub mod offline_panel;
pub mod open_report_panel;
pub mod ranked_window;
pub mod report_view;
pub mod run_panel;
pub mod settings_panel;
pub mod share_panel;

pub use figeval_web_common::table_scroll;
