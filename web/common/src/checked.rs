//! What the document module's dataset check is told (web/README.md, "The document module"):
//! the app announces the items of the report on show, the workbench its dataset when nothing
//! with items of its own is on show, the runs module the baseline of the comparison on show.
//! All go through boot.js's `figevalDoc.announce`.

use figeval::{Dataset, Item, Page, Report};

use crate::open_report::OpenReport;

/// What the module is told: the dataset's text (`""`: none), which one it is, and a warning
/// (`""`: none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announced {
    /// The dataset as JSON (`""`: nothing to check).
    pub text: String,
    /// Which dataset it is, as the check names it.
    pub what: String,
    /// A warning to show above the check.
    pub note: String,
    /// The hits of the report on show whose responses were read in this page, for the
    /// module's provenance audit (contract §14.8): a JSON array of `[page_start, page_end,
    /// cut, content, file]`, one per ranked-window match with content and pages (`file`: the
    /// match's `file_path` in an item of several files, else `null`; `""`: none).
    pub hits: String,
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = figevalDoc, js_name = announce)]
    fn announce_to_doc(text: &str, what: &str, note: &str, hits: &str);
}

/// Hands what is checked to the document module through boot.js's bridge.
pub fn announce(a: &Announced) {
    announce_to_doc(&a.text, &a.what, &a.note, &a.hits);
}

/// The hits [`Announced::hits`] lists: each record's ranked-window rows with the start of what
/// the match said. A match of an item of several files (contract §1.5) carries its file, and
/// the audit reads it in the open PDF that file is.
fn hits_of(report: &Report, said: &[Vec<figeval::snippet::Snippet>]) -> String {
    let mut hits = Vec::new();
    for (record, snippets) in report.per_item.iter().zip(said) {
        let several = !record.expected_locations.is_empty();
        for (row, snippet) in record.top.iter().zip(snippets) {
            if let (Some(start), Some(end), Some((content, cut))) =
                (row.page_start, row.page_end, &snippet.content)
            {
                let file = row.file_path.as_ref().filter(|_| several);
                hits.push(serde_json::json!([start, end, cut, content, file]));
            }
        }
    }
    serde_json::Value::Array(hits).to_string()
}

/// The items of a report as a dataset (what each record keeps of its item).
pub fn dataset_of(report: &Report) -> Dataset {
    Dataset {
        corpus_id: report.corpus_id.clone(),
        items: report
            .per_item
            .iter()
            .map(|r| Item {
                question: r.question.clone(),
                expected_pages: r
                    .expected_pages
                    .iter()
                    .filter_map(|&p| Page::new(i64::from(p)))
                    .collect(),
                expected_locations: r.expected_locations.clone(),
                figure_ref: r.figure_ref.clone(),
                kind: r.kind,
                tags: r.tags.clone(),
            })
            .collect(),
    }
}

/// What the module is told about the items of `open`, `whose` saying which report it is on
/// screen (`the report on show`, `the baseline report of the comparison`).
pub fn of_report(open: &OpenReport, whose: &str) -> Announced {
    let report = &open.report;
    if report.per_item.is_empty() {
        return Announced {
            text: String::new(),
            what: format!(
                "{whose} ({}, corpus {}) keeps no per-item records, so it has no items to check",
                open.name, report.corpus_id
            ),
            note: String::new(),
            hits: String::new(),
        };
    }
    Announced {
        hits: open
            .said
            .as_ref()
            .map_or_else(String::new, |said| hits_of(report, said)),
        text: dataset_of(report).to_value().to_string(),
        what: format!(
            "the items of {whose} ({}, corpus {}, {} items)",
            open.name,
            report.corpus_id,
            report.per_item.len()
        ),
        note: String::new(),
    }
}
