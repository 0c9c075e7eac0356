//! The app's components, one per file.

pub mod app;
pub mod bar_chart;
pub mod compare_view;
pub mod error_banner;
pub mod group_table;
pub mod item_row;
pub mod items_list;
pub mod ranked_window;
pub mod report_view;
pub mod share_panel;

pub use figeval_web_common::{file_drop, file_picker, table_scroll};
