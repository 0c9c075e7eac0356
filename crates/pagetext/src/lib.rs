//! The text of every physical page of a PDF, from poppler's `pdftotext`.
//!
//! The one way natively to get a PDF's page text, shared by the `figeval` command line
//! (`figeval ground`, `figeval captions`) and the `refsearch` reference deployment, which must
//! not depend on figeval. Page `n` is index `n - 1`: poppler ends every page, blank ones
//! included, with a form feed, and the count must equal `pdfinfo`'s `Pages:`, or the pages
//! would be numbered wrong.
//!
//! Why `pdftotext` and not a pure-Rust crate: measured on the GNU Octave manual (1158 pages,
//! 29 figure captions), see the figeval README's "Check a dataset against its PDF".
//!
//! [`read_pages`] adds OCR for scanned pages: a page whose text layer is nearly empty
//! ([`NEARLY_EMPTY_CHARS`]) and that carries an image is rendered by `pdftoppm` and read by
//! `tesseract`, one process per core, each page within a time limit, the readings cached by
//! the PDF's content hash (see the figeval contract, "Scanned pages").
//!
//! One job per module: `extract` (the text layer), `ocr` (which pages OCR reads, and reading
//! them), `tesseract` (one page through `pdftoppm` and `tesseract`), `cache` (OCR readings kept
//! on disk), `probe` (`pdfinfo`'s page count and sizes, `pdfimages`' pages with images),
//! `document` (the pages as read), `tool` and `child` (running a tool within a time limit,
//! and wording poppler's failures), `error`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cache;
mod child;
mod document;
mod error;
mod extract;
mod ocr;
mod probe;
mod tesseract;
mod tool;

pub use cache::default_cache_dir;
pub use document::{Document, Page, Source, Unreadable};
pub use error::ExtractError;
pub use extract::{extract_pages, split_pages};
pub use ocr::{
    is_nearly_empty, read_pages, OcrMode, Options, DEFAULT_PAGE_TIMEOUT, MAX_RENDER_PIXELS,
    NEARLY_EMPTY_CHARS,
};
pub use probe::{parse_pdfinfo_pages, pdf_page_count};
pub use tool::{output_within, tool_limit};
