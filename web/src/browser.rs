//! The browser shell: files, downloads, the URL fragment, share links, the clipboard and focus.
//! Thin wrappers; nothing here decides a number.

pub use crate::files::download;
pub use figeval_web_common::focus::{focus, focused_is};
pub use figeval_web_common::link::{fragment, open_link};
