//! The standard run files of a dataset of several files (contract §1.5, §8.5): doc ids that
//! name the file and the page.

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::capture::Pairing;
use crate::dataset::{Dataset, Item};
use crate::files::same_file;
use crate::response::Match;
use crate::score::ScoreConfig;
use crate::trec::{
    page_run, queries_jsonl, query_id, ExportError, SpanTooWide, TrecFiles, MAX_LISTED_SPAN,
    RUN_TAG,
};

/// A TREC document id of a file's page (contract §8.5): `PATH#p<page>`, the path with `%`
/// and whitespace percent-encoded (TREC files split on whitespace); `p<page>` without a file.
pub fn doc_id(file: Option<&str>, page: u32) -> String {
    let Some(file) = file else {
        return crate::trec::doc_id(page);
    };
    let mut out = String::with_capacity(file.len() + 8);
    for c in file.chars() {
        if c == '%' || c.is_whitespace() {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        } else {
            out.push(c);
        }
    }
    let _ = write!(out, "#p{page}");
    out
}

/// One page of an item's run over files and pages: the match's file as it stated it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankedFilePage {
    /// The match's file (`None` when it states none).
    pub file: Option<String>,
    /// The page.
    pub page: u32,
    /// The 1-based rank of the first match that cites it.
    pub rank: u32,
}

/// An item's run over files and pages, or why its matches cannot be listed page by page.
pub(crate) type FilePageRun = Result<Vec<RankedFilePage>, SpanTooWide>;

/// Each distinct (file, page) the matches cite, at the rank of the first match that cites it,
/// as [`crate::trec::page_run`] lists pages.
pub(crate) fn file_page_run(matches: &[Match]) -> FilePageRun {
    let mut seen = HashSet::new();
    let mut run = Vec::new();
    for (i, m) in matches.iter().enumerate() {
        let rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
        // The match's own pages, as a run of one match lists them.
        let pages = page_run(std::slice::from_ref(m)).map_err(|w| SpanTooWide { rank, ..w })?;
        for p in pages {
            if seen.insert((m.file_path.clone(), p.page)) {
                run.push(RankedFilePage {
                    file: m.file_path.clone(),
                    page: p.page,
                    rank,
                });
            }
        }
    }
    Ok(run)
}

/// A pairing for [`export`]: it keeps each item's run over files and pages as it reads.
pub fn pairing(dataset: &Dataset) -> Pairing<'_, FilePageRun> {
    Pairing::keeping(dataset, ScoreConfig::default(), file_page_run)
}

/// The file a run names a match's page by: the path of the item's first location that is the
/// match's file and holds the page, else of its first location that is the match's file, else
/// the match's own path. So the run and the qrels name a file alike however its paths differ.
fn run_file<'a>(item: &'a Item, file: Option<&'a str>, page: u32) -> Option<&'a str> {
    let file = file?;
    let same = || {
        item.expected_locations
            .iter()
            .filter(|l| same_file(file, &l.path))
    };
    let held = same().find(|l| l.start.get() <= page && page <= l.end.get());
    Some(
        held.or_else(|| same().next())
            .map_or(file, |l| l.path.as_str()),
    )
}

/// [`crate::trec::export`] of a dataset of several files (contract §8.5): doc ids name the
/// file and the page ([`doc_id`]); the qrels list every page of every location (an item of
/// `expected_pages` lists its pages without a file). A location wider than
/// [`MAX_LISTED_SPAN`] pages is refused, as a match's span is.
pub fn export(
    dataset: &Dataset,
    pairing: Pairing<'_, FilePageRun>,
) -> Result<TrecFiles, ExportError> {
    let mut qrels = String::new();
    let mut qrels_count = 0;
    for (index, item) in dataset.items.iter().enumerate() {
        let qid = query_id(index);
        for page in &item.expected_pages {
            let _ = writeln!(qrels, "{qid} 0 {} 1", doc_id(None, page.get()));
            qrels_count += 1;
        }
        for l in &item.expected_locations {
            let (start, end) = (l.start.get(), l.end.get());
            if end - start >= MAX_LISTED_SPAN {
                return Err(ExportError::LocationTooWide {
                    index,
                    question: item.question.clone(),
                    path: l.path.clone(),
                    start,
                    end,
                });
            }
            for page in start..=end {
                let _ = writeln!(qrels, "{qid} 0 {} 1", doc_id(Some(&l.path), page));
                qrels_count += 1;
            }
        }
    }
    let (_, runs) = pairing
        .finish_keeping(false)
        .map_err(ExportError::Capture)?;
    let mut run_text = String::new();
    let mut run_count = 0;
    for (index, (item, run)) in dataset.items.iter().zip(runs).enumerate() {
        let run = run.map_err(|wide| ExportError::SpanTooWide {
            index,
            question: item.question.clone(),
            wide,
        })?;
        let qid = query_id(index);
        // Two paths of one location's file name one document: it keeps its first rank.
        let mut seen = HashSet::new();
        for r in &run {
            let id = doc_id(run_file(item, r.file.as_deref(), r.page), r.page);
            if !seen.insert(id.clone()) {
                continue;
            }
            let score = crate::decimal::shortest(1.0 / f64::from(r.rank));
            let _ = writeln!(run_text, "{qid} Q0 {id} {} {score} {RUN_TAG}", r.rank);
            run_count += 1;
        }
    }
    Ok(TrecFiles {
        qrels,
        run: run_text,
        queries: queries_jsonl(dataset),
        qrels_count,
        run_count,
    })
}

#[cfg(test)]
mod export {
    use super::*;
    use crate::dataset::Page;
    use crate::response::PageSpan;
    use serde_json::Value;

    const DATASET: &str = r#"{"corpus_id": "c", "items": [
        {"question": "a?", "figure_ref": "F1", "kind": "locate", "expected_locations": [
            {"path": "sheets/A 101.pdf", "unit": "page", "start": 3, "end": 4},
            {"path": "A-102.pdf", "unit": "page", "start": 7, "end": 7}]},
        {"question": "b?", "figure_ref": "F2", "kind": "locate", "expected_pages": [5]}]}"#;

    fn line(question: &str, hits: &[(Option<&str>, u32)]) -> String {
        let matches: Vec<Value> = hits
            .iter()
            .map(|(file, page)| {
                let mut m = serde_json::json!({"chunk_id": "c", "content": "t", "score": 1.0,
                    "provenance": {"page_start": page, "page_end": page}});
                if let Some(f) = file {
                    m["file_path"] = (*f).into();
                }
                m
            })
            .collect();
        serde_json::json!({"query": question, "matches": matches}).to_string() + "\n"
    }

    #[test]
    fn doc_ids_name_the_file_and_the_page() {
        assert_eq!(doc_id(Some("sheets/A-101.pdf"), 3), "sheets/A-101.pdf#p3");
        assert_eq!(doc_id(Some("a b%\tc.pdf"), 12), "a%20b%25%09c.pdf#p12");
        assert_eq!(doc_id(None, 7), "p7");
    }

    #[test]
    fn the_run_names_a_match_by_the_path_of_its_location_and_the_qrels_every_page() {
        let d = Dataset::parse(DATASET).unwrap();
        let capture = line(
            "a?",
            &[
                (Some("corpus/sheets/A 101.pdf"), 4),
                (Some("other.pdf"), 3),
                (Some("A 101.pdf"), 4),
                (None, 7),
                (Some("A-102.pdf"), 7),
            ],
        ) + &line("b?", &[(Some("x.pdf"), 5)]);
        let files = export(
            &d,
            crate::CaptureReader::read_str(pairing(&d), &capture).pairing,
        )
        .unwrap();
        assert_eq!(
            files.qrels,
            "q1 0 sheets/A%20101.pdf#p3 1\nq1 0 sheets/A%20101.pdf#p4 1\nq1 0 A-102.pdf#p7 1\n\
             q2 0 p5 1\n"
        );
        // `A 101.pdf` at rank 3 is the same file and page as rank 1: listed once.
        assert_eq!(
            files.run,
            "q1 Q0 sheets/A%20101.pdf#p4 1 1 figeval\nq1 Q0 other.pdf#p3 2 0.5 figeval\n\
             q1 Q0 p7 4 0.25 figeval\nq1 Q0 A-102.pdf#p7 5 0.2 figeval\n\
             q2 Q0 x.pdf#p5 1 1 figeval\n"
        );
        assert_eq!((files.qrels_count, files.run_count), (4, 5));
    }

    #[test]
    fn the_file_run_lists_each_file_and_page_once_and_refuses_a_span_too_wide() {
        let cites = |file: &str, start: u32, end: u32| Match {
            pages: PageSpan::new(
                Page::new(start.into()).unwrap(),
                Page::new(end.into()).unwrap(),
            ),
            file_path: Some(file.into()),
            ..Match::default()
        };
        let run = file_page_run(&[
            cites("a.pdf", 3, 4),
            cites("b.pdf", 3, 3),
            cites("a.pdf", 4, 4),
        ])
        .unwrap();
        let listed: Vec<(&str, u32, u32)> = run
            .iter()
            .map(|r| (r.file.as_deref().unwrap(), r.page, r.rank))
            .collect();
        assert_eq!(listed, [("a.pdf", 3, 1), ("a.pdf", 4, 1), ("b.pdf", 3, 2)]);
        let wide = file_page_run(&[cites("a.pdf", 1, 1), cites("b.pdf", 5, 5 + MAX_LISTED_SPAN)])
            .unwrap_err();
        assert_eq!((wide.rank, wide.start), (2, 5));
    }

    #[test]
    fn a_location_too_wide_to_list_is_refused_naming_the_item() {
        let d = Dataset::parse(
            &DATASET.replace(r#""start": 7, "end": 7"#, r#""start": 1, "end": 20000"#),
        )
        .unwrap();
        let capture = line("a?", &[]) + &line("b?", &[]);
        let e = export(
            &d,
            crate::CaptureReader::read_str(pairing(&d), &capture).pairing,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "item 1 (q1, \"a?\"): the location \"A-102.pdf\" covers pages 1–20000, over the \
             10000 pages a qrels file lists one by one"
        );
    }
}
