//! Standard run files: a capture as a TREC run over pages, and a dataset as TREC qrels, so that
//! ranx, ir_measures or trec_eval can compute the metrics figeval does not.
//!
//! - Query ids are `q1…qN` in dataset order ([`query_id`]); [`queries_jsonl`] maps them back to
//!   the questions (TREC files have no place for the text).
//! - Document ids are `p<page>` ([`doc_id`]); a dataset of several files names the file too,
//!   `PATH#p<page>` ([`files`]).
//! - The run ([`page_run`], [`run_lines`]) lists each distinct page once, at the rank of the
//!   first match that cites it, with score `1/rank`. Pages cited by one match share its rank
//!   and score; a match that cites no page adds nothing.
//! - The qrels ([`qrels_lines`]) mark every expected page relevant (1).
//!
//! How hit@k over this run differs from `page_hit_at_k`: figeval counts *matches* (is one of
//! the first k matches on an expected page?); the run counts *pages*. A page cited by several
//! matches appears once, and one match spanning pages 4–6 puts three pages at its rank. So
//! when every match cites one page and no two cite the same one, the page at rank r is the
//! match at rank r, and ranx's hit rate at 3 and 5 and its MRR equal `page_hit_at_3`,
//! `page_hit_at_5` and `page_mrr`. Otherwise the numbers differ, and neither is wrong.

use std::collections::HashSet;
use std::fmt::Write as _;

pub mod beir;
pub mod files;

use crate::capture::{CaptureErrors, CaptureReader, Pairing};
use crate::dataset::Dataset;
use crate::response::Match;
use crate::score::ScoreConfig;

/// The run tag written in the last column of every run line.
pub(crate) const RUN_TAG: &str = "figeval";

/// One page of an item's page run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankedPage {
    /// The page.
    pub page: u32,
    /// The 1-based rank of the first match that cites it.
    pub rank: u32,
}

impl RankedPage {
    /// The run score, `1/rank`.
    pub fn score(self) -> f64 {
        1.0 / f64::from(self.rank)
    }
}

/// The query id of the item at 0-based `index` in dataset order: `q1` for the first.
pub fn query_id(index: usize) -> String {
    format!("q{}", index + 1)
}

/// The document id of a page: `p12`.
pub fn doc_id(page: u32) -> String {
    format!("p{page}")
}

/// The widest span, in pages, that [`page_run`] lists page by page. A wider one is refused
/// rather than written out: it would be a run line per page (a span may claim two billion).
pub const MAX_LISTED_SPAN: u32 = 10_000;

/// A match whose span is too wide to list ([`MAX_LISTED_SPAN`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanTooWide {
    /// The 1-based rank of the match.
    pub rank: u32,
    /// Its first page.
    pub start: u32,
    /// Its last page.
    pub end: u32,
}

impl std::fmt::Display for SpanTooWide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the match at rank {} cites pages {}–{}, over the {MAX_LISTED_SPAN} pages a run lists \
             one by one",
            self.rank, self.start, self.end
        )
    }
}

/// An item's page run, or why its matches cannot be listed page by page.
pub type PageRun = Result<Vec<RankedPage>, SpanTooWide>;

/// Each distinct page the matches cite, at the rank of the first match that cites it, in rank
/// order (pages of one match in page order).
pub fn page_run(matches: &[Match]) -> PageRun {
    let mut seen = HashSet::new();
    let mut run = Vec::new();
    for (i, m) in matches.iter().enumerate() {
        let Some(span) = m.pages else { continue };
        let rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let (start, end) = (span.start().get(), span.end().get());
        if span.span_pages() > MAX_LISTED_SPAN {
            return Err(SpanTooWide { rank, start, end });
        }
        for page in start..=end {
            if seen.insert(page) {
                run.push(RankedPage { page, rank });
            }
        }
    }
    Ok(run)
}

/// The run file: one line `qid Q0 p<page> rank score figeval` per page of each item's run.
/// `runs` holds, per item in dataset order, its page run.
pub fn run_lines<'a>(runs: impl IntoIterator<Item = &'a [RankedPage]>) -> String {
    let mut out = String::new();
    for (i, run) in runs.into_iter().enumerate() {
        let qid = query_id(i);
        for r in run {
            // `decimal::shortest` is `{}` of the score, byte for byte, without the standard
            // library's float printing (the browser's bundle carries what it links).
            let _ = writeln!(
                out,
                "{qid} Q0 {} {} {} {RUN_TAG}",
                doc_id(r.page),
                r.rank,
                crate::decimal::shortest(r.score())
            );
        }
    }
    out
}

/// The qrels file: one line `qid 0 p<page> 1` per expected page of each item.
pub fn qrels_lines(dataset: &Dataset) -> String {
    let mut out = String::new();
    for (i, item) in dataset.items.iter().enumerate() {
        let qid = query_id(i);
        for page in &item.expected_pages {
            let _ = writeln!(out, "{qid} 0 {} 1", doc_id(page.get()));
        }
    }
    out
}

/// The query map: one JSON object `{"qid": "q1", "question": "…"}` per line, in dataset order.
pub fn queries_jsonl(dataset: &Dataset) -> String {
    let mut out = String::new();
    for (i, item) in dataset.items.iter().enumerate() {
        // The question as a JSON string (escaped as serde_json escapes it), without building
        // a JSON value for each line.
        let question = serde_json::to_string(&item.question).unwrap_or_default();
        let _ = writeln!(
            out,
            "{{\"qid\":\"{}\",\"question\":{question}}}",
            query_id(i)
        );
    }
    out
}

/// The three standard run files of a capture, as [`export`] builds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrecFiles {
    /// The qrels ([`qrels_lines`]).
    pub qrels: String,
    /// The run ([`run_lines`]).
    pub run: String,
    /// The query map ([`queries_jsonl`]).
    pub queries: String,
    /// How many qrels lines (expected pages) there are.
    pub qrels_count: usize,
    /// How many run lines there are.
    pub run_count: usize,
}

/// Why a capture cannot be exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportError {
    /// The capture does not pair with the dataset (unknown, duplicate, unreadable or missing
    /// responses), as `figeval score` without `--allow-missing` would refuse it.
    Capture(CaptureErrors),
    /// An item's matches cite a span too wide to list page by page.
    SpanTooWide {
        /// The item's 0-based index in dataset order.
        index: usize,
        /// Its question.
        question: String,
        /// The match.
        wide: SpanTooWide,
    },
    /// An item's location spans more pages than a qrels file lists one by one
    /// ([`MAX_LISTED_SPAN`]).
    LocationTooWide {
        /// The item's 0-based index in dataset order.
        index: usize,
        /// Its question.
        question: String,
        /// The location's path.
        path: String,
        /// Its first page.
        start: u32,
        /// Its last page.
        end: u32,
    },
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Capture(e) => write!(f, "{e}"),
            ExportError::SpanTooWide {
                index,
                question,
                wide,
            } => write!(
                f,
                "item {} ({}, {question:?}): {wide}",
                index + 1,
                query_id(*index)
            ),
            ExportError::LocationTooWide {
                index,
                question,
                path,
                start,
                end,
            } => write!(
                f,
                "item {} ({}, {question:?}): the location {path:?} covers pages {start}–{end}, \
                 over the {MAX_LISTED_SPAN} pages a qrels file lists one by one",
                index + 1,
                query_id(*index)
            ),
        }
    }
}

impl std::error::Error for ExportError {}

/// A pairing for [`export`]: it keeps each item's page run as it reads.
pub fn pairing(dataset: &Dataset) -> Pairing<'_, PageRun> {
    Pairing::keeping(dataset, ScoreConfig::default(), page_run)
}

/// The qrels, run and query map of what `pairing` (from [`pairing`], over `dataset`) has read.
/// Every item must have a usable response, as `figeval score` requires by default, and no
/// match may span more than [`MAX_LISTED_SPAN`] pages; otherwise the first reason is given.
pub fn export(dataset: &Dataset, pairing: Pairing<'_, PageRun>) -> Result<TrecFiles, ExportError> {
    // Without missing responses allowed, every item has a record, so a run, in dataset order.
    let (_, runs) = pairing
        .finish_keeping(false)
        .map_err(ExportError::Capture)?;
    let mut listed = Vec::with_capacity(runs.len());
    for (index, (item, run)) in dataset.items.iter().zip(runs).enumerate() {
        match run {
            Ok(run) => listed.push(run),
            Err(wide) => {
                return Err(ExportError::SpanTooWide {
                    index,
                    question: item.question.clone(),
                    wide,
                })
            }
        }
    }
    Ok(TrecFiles {
        qrels: qrels_lines(dataset),
        run: run_lines(listed.iter().map(Vec::as_slice)),
        queries: queries_jsonl(dataset),
        qrels_count: dataset.items.iter().map(|it| it.expected_pages.len()).sum(),
        run_count: listed.iter().map(Vec::len).sum(),
    })
}

/// [`export`] of a capture held as text (any form `figeval score` reads).
pub fn export_capture(dataset: &Dataset, capture: &str) -> Result<TrecFiles, ExportError> {
    export(
        dataset,
        CaptureReader::read_str(pairing(dataset), capture).pairing,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Page;
    use crate::response::PageSpan;

    fn cites(start: u32, end: u32) -> Match {
        Match {
            pages: PageSpan::new(
                Page::new(start.into()).unwrap(),
                Page::new(end.into()).unwrap(),
            ),
            ..Match::default()
        }
    }

    #[test]
    fn a_page_sits_at_the_rank_of_the_first_match_that_cites_it() {
        let matches = [cites(7, 7), Match::default(), cites(4, 6), cites(7, 8)];
        let run = page_run(&matches).unwrap();
        let pairs: Vec<(u32, u32)> = run.iter().map(|r| (r.page, r.rank)).collect();
        assert_eq!(pairs, [(7, 1), (4, 3), (5, 3), (6, 3), (8, 4)]);
        assert_eq!(run[1].score(), 1.0 / 3.0);
    }

    #[test]
    fn a_span_too_wide_to_list_is_refused_with_its_rank() {
        assert!(page_run(&[cites(1, MAX_LISTED_SPAN)]).is_ok());
        let wide = page_run(&[cites(1, 1), cites(5, 5 + MAX_LISTED_SPAN)]).unwrap_err();
        assert_eq!(wide.rank, 2);
        assert!(
            wide.to_string().contains("rank 2 cites pages 5–10005"),
            "{wide}"
        );
    }

    #[test]
    fn the_run_and_qrels_use_query_and_page_ids() {
        let d = Dataset::parse(
            r#"{"corpus_id":"c","items":[
            {"question":"a?","expected_pages":[2,3],"figure_ref":"F1","kind":"locate"},
            {"question":"b \"quoted\"?","expected_pages":[9],"figure_ref":"F2","kind":"content"}]}"#,
        )
        .unwrap();
        assert_eq!(qrels_lines(&d), "q1 0 p2 1\nq1 0 p3 1\nq2 0 p9 1\n");
        let runs = [
            page_run(&[cites(3, 3), cites(1, 1)]).unwrap(),
            page_run(&[]).unwrap(),
        ];
        assert_eq!(
            run_lines(runs.iter().map(Vec::as_slice)),
            "q1 Q0 p3 1 1 figeval\nq1 Q0 p1 2 0.5 figeval\n"
        );
        let queries = queries_jsonl(&d);
        let second: serde_json::Value =
            serde_json::from_str(queries.lines().nth(1).unwrap()).unwrap();
        assert_eq!(second["qid"], "q2");
        assert_eq!(second["question"], "b \"quoted\"?");
        assert_eq!(
            queries.lines().nth(1).unwrap(),
            serde_json::json!({ "qid": "q2", "question": "b \"quoted\"?" }).to_string()
        );
        // The score is written as `{}` writes it, for every rank.
        for rank in 1..=2000 {
            let line = run_lines([&[RankedPage { page: 1, rank }][..]]);
            let score = 1.0 / f64::from(rank);
            assert_eq!(line, format!("q1 Q0 p1 {rank} {score} figeval\n"));
        }
    }

    const TWO: &str = r#"{"corpus_id":"c","items":[
        {"question":"a?","expected_pages":[2],"figure_ref":"F1","kind":"locate"},
        {"question":"b?","expected_pages":[9,10],"figure_ref":"F2","kind":"content"}]}"#;

    fn body(q: &str, spans: &[(u32, u32)]) -> String {
        let matches: Vec<_> = spans
            .iter()
            .enumerate()
            .map(|(i, (s, e))| {
                serde_json::json!({"chunk_id": format!("c{i}"), "content": "t", "score": 1.0,
                    "provenance": {"page_start": s, "page_end": e}})
            })
            .collect();
        serde_json::json!({"query": q, "matches": matches}).to_string() + "\n"
    }

    #[test]
    fn export_builds_the_three_files_of_a_capture() {
        let d = Dataset::parse(TWO).unwrap();
        let cap = body("b?", &[(10, 10), (3, 4)]) + &body("a?", &[(2, 2)]);
        let files = export_capture(&d, &cap).unwrap();
        assert_eq!(files.qrels, "q1 0 p2 1\nq2 0 p9 1\nq2 0 p10 1\n");
        assert_eq!(
            files.run,
            "q1 Q0 p2 1 1 figeval\nq2 Q0 p10 1 1 figeval\nq2 Q0 p3 2 0.5 figeval\nq2 Q0 p4 2 0.5 figeval\n"
        );
        assert_eq!(files.queries, queries_jsonl(&d));
        assert_eq!((files.qrels_count, files.run_count), (3, 4));
    }

    #[test]
    fn export_refuses_an_unanswered_item_and_a_span_too_wide() {
        let d = Dataset::parse(TWO).unwrap();
        let missing = export_capture(&d, &body("a?", &[(2, 2)])).unwrap_err();
        assert!(matches!(missing, ExportError::Capture(_)), "{missing:?}");
        assert!(missing.to_string().contains("b?"), "{missing}");
        let wide = body("a?", &[(2, 2)]) + &body("b?", &[(1, 1), (5, 5 + MAX_LISTED_SPAN)]);
        let e = export_capture(&d, &wide).unwrap_err();
        assert_eq!(
            e.to_string(),
            "item 2 (q2, \"b?\"): the match at rank 2 cites pages 5–10005, over the 10000 pages \
             a run lists one by one"
        );
    }
}
