//! The document side of figeval, on top of its pure scoring core (the crate `figeval`).
//!
//! The core scores a deployment's answers against a dataset; this crate checks the dataset
//! against its document. It takes the text of every page (index 0 holding page 1), never a
//! file: the shells bring the text (natively `pagetext`, in the page pdf.js), so it builds for
//! `wasm32-unknown-unknown` and does no I/O, like the core.
//!
//! ```text
//! dataset ─┐
//!          ├─► ground ─► Ground (verdicts, offset, warnings) ─► render; Ground::fix ─► dataset
//! page texts┘  (find_captions: the caption index; section_headings: a page's headings)
//! ```
//!
//! The modules form layers, each using only those above it here:
//!
//! - [`caption`]: figure and table labels in page text, captions against mentions; the caption
//!   index (contract §13.1).
//! - [`headings`]: section headings in page text: where a section a `figure_ref` names is a
//!   heading, and the headings of one page (contract §13.6).
//! - [`ground`]: the ground check of a dataset against its document's page texts: verdicts,
//!   offset, shared pages, the fix (contract §13).
//! - [`editor`]: the dataset editor's draft, checked as it is typed (contract §1.4).
//! - [`render`]: text and Markdown renderings of a ground check, and how the pages were read.
//!
//! The browser app's main module does not depend on this crate; its document module
//! (`web/doc`), the command line (`figeval ground`, `figeval captions`), the tests and the
//! benchmarks do.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod caption;
pub mod editor;
pub mod ground;
pub mod headings;
pub mod render;

pub use caption::{find_captions, Caption, Label, LabelKind};
pub use ground::{ground, FixError, Ground, ItemGround, Offset, OffsetCause, Verdict};
pub use headings::section_headings;
