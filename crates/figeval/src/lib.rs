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
//! - [`dataset`]: the dataset model and its validation (every error, with where and what).
//! - [`response`]: reading a search response and its matches leniently (SPEC §3).
//! - [`score`]: scoring one item (SPEC §4) and the [`Metric`] enum.
//! - [`summary`]: rates, hit counts and MRR with Python's `round(x, 4)` (SPEC §5).
//! - [`report`]: the report object (SPEC §5).
//! - [`capture`]: reading captures in every accepted form and pairing them (SPEC §6).
//! - [`compare`]: before/after comparison with the exact McNemar p-value (SPEC §7).
//! - [`request`]: the search request of a live run and its capture envelope (SPEC §2, §6).
//! - [`render`]: text and Markdown renderings of a comparison.
//! - [`share`]: the share-link codec (`#report=`, SPEC §10).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod capture;
pub mod compare;
pub mod dataset;
mod describe;
pub mod render;
pub mod report;
pub mod request;
pub mod response;
pub mod score;
pub mod share;
pub mod snippet;
pub mod summary;

pub use capture::{CaptureError, CaptureErrors, Pairing, Scored};
pub use compare::{compare, Comparison};
pub use dataset::{Dataset, DatasetError, DatasetErrors, Group, Item, Kind, Page};
pub use report::{CacheMode, Report, ReportHeader, RequestInfo, RunInfo};
pub use request::{check_top_k, SearchRequest, MIN_TOP_K};
pub use response::{Match, PageSpan, Response, ResponseProblem};
pub use score::{score_item, ItemRecord, Metric, ScoreConfig, TopRow};
pub use summary::{round4, Summary};

/// The version of this crate, recorded in every report's `run` object.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
