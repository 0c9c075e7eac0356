//! The pure scoring core of figeval.
//!
//! figeval asks whether a document search deployment brings back the *page* a figure or a
//! passage is printed on. On a corpus that is one PDF every match cites the same file, so
//! path-level recall is 1.0 whatever the retriever does; pages are what separate good
//! retrieval from bad.
//!
//! This crate holds everything that decides a number, and nothing else: no files, no network,
//! no clock. The command line, the browser app and the tests are shells around it, so the same
//! function scores everywhere (natively and on `wasm32-unknown-unknown`).
//!
//! Data flows one way:
//!
//! ```text
//! dataset ─┐
//!          ├─► per-item records ─► summaries ─► Report ─► renderers (JSON, text, Markdown)
//! responses┘                                      └──► compare (before/after) ─► renderers
//! ```
//!
//! The document side (captions in page text, the ground check of a dataset against its
//! document, section headings, the dataset editor's draft and the ground check's renderings)
//! is the crate `figeval-document`, built on this one: a shell that never reads a document,
//! like the browser app's main module, does not link it.
//!
//! What each module implements is specified in the repository's `docs/contract.md`, cited
//! below and in the code as "contract §N".
//!
//! - [`dataset`]: the dataset model and its validation (contract §1).
//! - [`files`]: corpora of several files: `expected_locations` and matching a match's file to
//!   them (contract §1.5).
//! - [`response`]: reading a search response and its matches leniently (contract §3).
//! - [`score`]: scoring one item (contract §4) and the [`Metric`] enum.
//! - [`summary`]: rates, hit counts and MRR with Python's `round(x, 4)` (contract §5.1).
//! - [`report`]: the report object (contract §5.2).
//! - [`capture`]: reading captures in every accepted form and pairing them (contract §6).
//! - [`compare`](mod@compare): before/after comparison with the exact McNemar p-value (contract §7).
//! - [`gate`]: the significance gate: drops the exact McNemar test calls significant, Holm
//!   across the tests watched (contract §7.2).
//! - [`connector`]: how to ask any search API and where its answer keeps its pages
//!   (contract §14): presets, the mapping, page labels.
//! - [`provenance`]: the provenance audit: is each hit's content printed on the pages it
//!   cites (contract §14.8)?
//! - [`decimal`]: the decimal text of doubles, exact, without the standard library's float
//!   formatting and parsing (which the browser bundle would carry).
//! - [`describe`]: short descriptions for messages, and the one way a text is cut to its start.
//! - [`live`]: the rules of a live run: limits, defaults, retries, backoff, judging an answer.
//! - [`request`]: the search request of a live run and its capture envelope (contract §2, §6).
//! - [`render`]: text and Markdown renderings of reports, comparisons, matrices and the gate.
//! - [`stats`]: Wilson and bootstrap intervals, Newcombe's paired interval, Holm's adjustment.
//! - [`trec`]: a capture as a TREC run over pages, a dataset as TREC qrels.
//! - [`matrix`]: many runs against one baseline, with Holm-adjusted McNemar p-values.
//!
//! # The facade
//!
//! The crate root re-exports the vocabulary the shells share: the command line and the browser
//! app both read datasets, captures and reports, score, compare, and check a live run's
//! settings (each refusal a typed error whose message is the one they print), through the
//! names below. What only the browser app uses is public so that the web crates can reach it
//! by module path, but it is not advertised as core API: the modules `share` (the share-link
//! codec, `#report=` and `#compare=`, contract §10.2) and `snippet` (the page's excerpt of a
//! match) are hidden from these docs and not re-exported, and neither is the one merge sort the
//! page sorts its item list with (`stats::stable_order`). They may change with the page without
//! notice to other users of the crate. What only this crate's own modules use is `pub(crate)`.
//!
//! # Features
//!
//! Without any, the crate does everything above but read answers through a connector: it reads
//! datasets of one file or several, the contract's answers and captures, scores, reports,
//! compares, and makes and opens share links. `default` is that, everywhere.
//!
//! - `connectors`: reading answers through a connector other than the default (contract §14):
//!   the modules [`connector`] and [`provenance`]. The page's main module leaves it out.
//! - `native-speed`: faster scoring on a native build (SIMD UTF-8 checks of capture lines, a
//!   summary's bootstraps on every core), the results the same to the bit. The command line
//!   takes it; a wasm build ignores it.
//!
//! The whole public surface, hidden items included, is listed one item a line in
//! `crates/figeval/public-api.txt`; `cargo xtask test` fails when the code and the listing
//! differ (`cargo xtask api --write` updates it), so a change to the surface shows in review.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod capture;
pub mod compare;
#[cfg(feature = "connectors")]
pub mod connector;
pub mod dataset;
pub mod decimal;
pub mod describe;
pub mod files;
pub mod gate;
pub mod live;
pub mod matrix;
#[cfg(feature = "connectors")]
pub mod provenance;
pub mod render;
pub mod report;
pub mod request;
pub mod response;
pub mod score;
#[doc(hidden)]
pub mod share;
#[doc(hidden)]
pub mod snippet;
pub mod stats;
pub mod summary;
pub mod trec;

pub use capture::{CaptureError, CaptureErrors, CaptureRead, CaptureReader, CutOff, Pairing};
pub use compare::{compare, Comparison, Gate};
#[cfg(feature = "connectors")]
pub use connector::{Connector, ConnectorError, ConnectorErrors, PageLabels};
pub use dataset::{
    Dataset, DatasetError, DatasetErrors, ExpectedLocation, Group, Item, Kind, Page,
};
pub use decimal::round4;
pub use live::{check_top_k, SettingError};
pub use report::Disagreement;
pub use report::{Report, ReportError, RunInfo, Scope, Scored};
pub use request::{CacheMode, RequestInfo, SearchRequest, MIN_TOP_K};
pub use response::{Match, PageSpan, Response, ResponseProblem};
pub use score::{score_item, ItemRecord, Metric, PerMetric, Ranking, ScoreConfig, TopRow};
pub use summary::Summary;

/// The version of this crate, recorded in every report's `run` object.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
