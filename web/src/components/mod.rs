//! The app's components, one per file.

pub mod app;
pub mod bar_chart;
pub mod error_banner;
pub mod group_table;
pub mod item_row;
pub mod items_list;
pub mod report_view;

pub use figeval_web_common::{ranked_window, share_panel, table_scroll};
