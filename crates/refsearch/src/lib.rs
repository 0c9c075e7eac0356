//! `refsearch`: a small, real reference search deployment for figeval.
//!
//! It indexes one PDF and answers `POST /api/search` with BM25-ranked chunks
//! that cite physical pages, speaking contract §2–§3 and §9 (`docs/contract.md`), so that
//! figeval can be run end to end without the production deployment.
//!
//! Pipeline, each step a module:
//!
//! 1. [`extract`] (the shared `pagetext` crate) — text per physical 1-based page. We run poppler's
//!    `pdftotext -layout -enc UTF-8` as a subprocess and split its output on
//!    form feeds: poppler ends every page, blank ones included, with `\f`, so
//!    the n-th piece is page n. The count must equal `pdfinfo`'s `Pages:` or
//!    startup fails (a drift would silently shift every cited page). Why
//!    pdftotext rather than a Rust PDF crate: it is the reference extractor
//!    for text PDFs, handles the fonts and encodings of real manuals, and
//!    `-layout` keeps caption lines intact. To start in seconds on a
//!    1000-page manual, contiguous page ranges are extracted by one process
//!    per core and concatenated; each range is checked on its own.
//! 2. [`chunk`] — text chunks: one per page, or one per numbered section
//!    (`--chunking section`, chunks that run across pages).
//! 3. [`figures`] — one figure chunk per caption line `Figure N.M: ...`,
//!    described by a figure-notes file where it has the figure.
//! 4. [`index`] — an in-RAM tantivy index; BM25 over chunk content.
//! 5. [`http`] — the axum router: search, health, JSON errors, local-only CORS.
//!
//! Around the pipeline, one job per file: [`Corpus`] (`corpus.rs`: one PDF's chunks and index,
//! or several PDFs merged into one), [`Args`] (`args.rs`: the command line), [`run`]
//! (`run.rs`: start-up, reading every PDF and printing the start-up lines), [`serve`] and
//! [`shutdown_signal`] (`serve.rs`: serving until ctrl-c or SIGTERM), [`Error`] (`error.rs`).
//!
//! The binary (`src/main.rs`) only parses [`Args`] and calls [`run`].

pub mod chunk;
pub use pagetext as extract;
pub mod figures;
pub mod http;
pub mod index;

mod args;
mod corpus;
mod error;
mod run;
mod serve;

pub use args::{Args, Ocr, Toggle};
pub use chunk::{Chunk, ChunkKind, Chunking, FigureInfo};
pub use corpus::{Corpus, CorpusOptions};
pub use error::Error;
pub use figures::{Caption, FigureNote, NotesError};
pub use http::{router, AppState};
pub use index::SearchIndex;
pub use run::run;
pub use serve::{serve, shutdown_signal};
