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
//! What each module implements is specified in the repository's `docs/contract.md`, cited
//! below and in the code as "contract §N".
//!
//! - [`dataset`]: the dataset model and its validation (contract §1).
//! - [`response`]: reading a search response and its matches leniently (contract §3).
//! - [`score`]: scoring one item (contract §4) and the [`Metric`] enum.
//! - [`summary`]: rates, hit counts and MRR with Python's `round(x, 4)` (contract §5.1).
//! - [`report`]: the report object (contract §5.2).
//! - [`capture`]: reading captures in every accepted form and pairing them (contract §6).
//! - [`compare`]: before/after comparison with the exact McNemar p-value (contract §7).
//! - [`gate`]: the significance gate: drops the exact McNemar test calls significant, Holm
//!   across the tests watched (contract §7.2).
//! - [`decimal`]: the decimal text of doubles, exact, without the standard library's float
//!   formatting and parsing (which the browser bundle would carry).
//! - [`describe`]: short descriptions for messages, and the one way a text is cut to its start.
//! - [`live`]: the rules of a live run: limits, defaults, retries, backoff, judging an answer.
//! - [`request`]: the search request of a live run and its capture envelope (contract §2, §6).
//! - [`render`]: text and Markdown renderings of a comparison.
//! - [`share`]: the share-link codec (`#report=` and `#compare=`, contract §10.2).
//! - [`stats`]: Wilson and bootstrap intervals, Newcombe's paired interval, Holm's adjustment.
//! - [`caption`]: figure and table captions and mentions in page text; the caption index.
//! - [`ground`]: the ground check of a dataset against its document's page texts.
//! - [`editor`]: the dataset editor's draft, checked as it is typed (contract §1.4).
//! - [`trec`]: a capture as a TREC run over pages, a dataset as TREC qrels.
//! - [`matrix`]: many runs against one baseline, with Holm-adjusted McNemar p-values.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod caption;
pub mod capture;
pub mod compare;
pub mod dataset;
pub mod decimal;
pub mod describe;
pub mod editor;
pub mod gate;
pub mod ground;
pub mod live;
pub mod matrix;
pub mod render;
pub mod report;
pub mod request;
pub mod response;
pub mod score;
pub mod share;
pub mod snippet;
pub mod stats;
pub mod summary;
pub mod trec;

pub use caption::{find_captions, Caption, Label, LabelKind};
pub use capture::{CaptureError, CaptureErrors, CaptureRead, CaptureReader, CutOff, Pairing};
pub use compare::{compare, Comparison, Gate};
pub use dataset::{Dataset, DatasetError, DatasetErrors, Group, Item, Kind, Page};
pub use decimal::round4;
pub use ground::{ground, Ground, ItemGround, Offset, OffsetCause, Verdict};
pub use report::{Report, ReportError, RunInfo, Scope, Scored};
pub use request::{check_top_k, CacheMode, RequestInfo, SearchRequest, MIN_TOP_K, TOP_K_REASON};
pub use response::{Match, PageSpan, Response, ResponseProblem};
pub use score::{score_item, ItemRecord, Metric, PerMetric, ScoreConfig, TopRow};
pub use summary::Summary;

/// The version of this crate, recorded in every report's `run` object.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
