//! The same run files in BEIR's layout (contract §8.6), for BEIR's evaluation and for
//! `ir_measures`: the queries, the judgments and the page run of [`super::export`] (or
//! [`super::files::export`]), converted line for line, so the two layouts never disagree.
//!
//! - `queries.jsonl`: `{"_id": "q1", "text": "…"}` per item, in dataset order.
//! - `qrels/test.tsv`: a `query-id\tcorpus-id\tscore` header, then one line per judged page,
//!   score 1.
//! - `results.json`: `{"q1": {"p332": 1, "p17": 0.5}, …}`, every query present (one whose
//!   matches cite no page maps to `{}`), each page at the score of its TREC run line (`1/rank`),
//!   always written with a point (`1.0`).
//!
//! BEIR's corpus file is not written: figeval does not hold the pages' text.

use std::fmt::Write as _;

use super::{query_id, TrecFiles};
use crate::dataset::Dataset;

/// A capture's run files in BEIR's layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BeirFiles {
    /// `queries.jsonl`.
    pub queries: String,
    /// `qrels/test.tsv`.
    pub qrels: String,
    /// `results.json`.
    pub results: String,
}

/// The BEIR files of `trec`, the TREC files [`super::export`] made of a capture of `dataset`.
pub fn from_trec(dataset: &Dataset, trec: &TrecFiles) -> BeirFiles {
    let mut queries = String::new();
    for (i, item) in dataset.items.iter().enumerate() {
        let _ = writeln!(
            queries,
            "{{\"_id\":\"{}\",\"text\":{}}}",
            query_id(i),
            json_string(&item.question)
        );
    }
    let mut qrels = String::from("query-id\tcorpus-id\tscore\n");
    // `qid 0 doc 1`: the doc id holds no whitespace (a file's path is percent-encoded).
    for fields in trec.qrels.lines().map(|l| l.split(' ').collect::<Vec<_>>()) {
        if let [qid, _, doc, relevance] = fields[..] {
            let _ = writeln!(qrels, "{qid}\t{doc}\t{relevance}");
        }
    }
    // `qid Q0 doc rank score tag`, grouped by query in dataset order: a query's lines are
    // consecutive and its pages distinct.
    let mut by_query: Vec<Vec<(&str, &str)>> = vec![Vec::new(); dataset.items.len()];
    for fields in trec.run.lines().map(|l| l.split(' ').collect::<Vec<_>>()) {
        if let [qid, _, doc, _, score, _] = fields[..] {
            let index = qid
                .strip_prefix('q')
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| n.checked_sub(1));
            if let Some(pages) = index.and_then(|i| by_query.get_mut(i)) {
                pages.push((doc, score));
            }
        }
    }
    let mut results = String::from("{");
    for (i, pages) in by_query.iter().enumerate() {
        let sep = if i == 0 { "\n" } else { ",\n" };
        let _ = write!(results, "{sep}  \"{}\": {{", query_id(i));
        for (k, (doc, score)) in pages.iter().enumerate() {
            let sep = if k == 0 { "" } else { ", " };
            // The score is the run line's text, `decimal::shortest` of 1/rank, written as a
            // JSON float (`1.0`, not `1`: pytrec_eval, under ir_measures, takes floats only).
            let point = if score.contains(['.', 'e']) { "" } else { ".0" };
            let _ = write!(results, "{sep}{}: {score}{point}", json_string(doc));
        }
        results.push('}');
    }
    results.push_str("\n}\n");
    BeirFiles {
        queries,
        qrels,
        results,
    }
}

/// `s` as a JSON string, escaped as serde_json escapes it.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATASET: &str = r#"{"corpus_id": "c", "items": [
        {"question": "Which figure shows \"A\"?", "expected_pages": [3, 4], "figure_ref": "Figure 1", "kind": "locate"},
        {"question": "Which figure shows B?", "expected_pages": [9], "figure_ref": "Figure 2", "kind": "content"}]}"#;

    fn body(question: &str, pages: &[(u32, u32)]) -> String {
        let matches: Vec<serde_json::Value> = pages
            .iter()
            .map(|&(s, e)| serde_json::json!({"provenance": {"page_start": s, "page_end": e}}))
            .collect();
        serde_json::json!({"query": question, "matches": matches}).to_string()
    }

    #[test]
    fn the_beir_files_carry_the_trec_files_queries_judgments_and_scores() {
        let dataset = Dataset::parse(DATASET).unwrap();
        let capture = [
            body("Which figure shows \"A\"?", &[(7, 7), (3, 4), (7, 8)]),
            body("Which figure shows B?", &[]),
        ]
        .join("\n");
        let trec = super::super::export_capture(&dataset, &capture).unwrap();
        let beir = from_trec(&dataset, &trec);
        assert_eq!(
            beir.queries,
            "{\"_id\":\"q1\",\"text\":\"Which figure shows \\\"A\\\"?\"}\n\
             {\"_id\":\"q2\",\"text\":\"Which figure shows B?\"}\n"
        );
        assert_eq!(
            beir.qrels,
            "query-id\tcorpus-id\tscore\nq1\tp3\t1\nq1\tp4\t1\nq2\tp9\t1\n"
        );
        assert_eq!(
            beir.results,
            "{\n  \"q1\": {\"p7\": 1.0, \"p3\": 0.5, \"p4\": 0.5, \"p8\": 0.3333333333333333},\n  \"q2\": {}\n}\n"
        );
        let results: serde_json::Value = serde_json::from_str(&beir.results).unwrap();
        assert_eq!(results["q1"]["p8"], serde_json::json!(1.0 / 3.0));
    }
}
