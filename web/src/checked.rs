//! What the document module's dataset check reads: the dataset of what is on screen. The
//! report view checks the open report's items (a report carries each item's question, pages
//! and figure reference), the compare view its baseline's, the workbench the dataset loaded
//! there. The module is told which one it checked, and is warned when the workbench's dataset
//! is for another corpus than the report open in the page (whose PDF is likely the one open).

use std::rc::Rc;

use figeval::{Dataset, Item, Page, Report};

use crate::shared::Shared;
use crate::state::{AppState, OpenReport, View};

/// What is checked, cheap to compare (pointers and keys): the app announces it again only
/// when it changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// The items of a report on show: the report view's, or the compare view's baseline.
    Report {
        /// The report.
        open: OpenReport,
        /// Which view shows it.
        view: View,
    },
    /// The dataset of the workbench.
    Dataset {
        /// The dataset, when its text is valid.
        dataset: Option<Shared<Dataset>>,
        /// Where it came from.
        source: Rc<str>,
        /// The corpus of the report open in the page, when one is.
        report_corpus: Option<Rc<str>>,
    },
}

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
    /// cut, content]`, one per ranked-window match with content and pages (`""`: none).
    pub hits: String,
}

/// The hits [`Announced::hits`] lists: each record's ranked-window rows with the start of what
/// the match said. None of an item of several files (contract §1.5): the open PDF is one file,
/// and a hit of another would be checked against the wrong pages.
fn hits_of(report: &Report, said: &[Vec<figeval::snippet::Snippet>]) -> String {
    let mut hits = Vec::new();
    for (record, snippets) in report.per_item.iter().zip(said) {
        if !record.expected_locations.is_empty() {
            continue;
        }
        for (row, snippet) in record.top.iter().zip(snippets) {
            if let (Some(start), Some(end), Some((content, cut))) =
                (row.page_start, row.page_end, &snippet.content)
            {
                hits.push(serde_json::json!([start, end, cut, content]));
            }
        }
    }
    serde_json::Value::Array(hits).to_string()
}

/// The dataset the check should read for the state on show.
pub fn target(state: &AppState) -> Target {
    let on_show = match state.view {
        View::Report => state.report.clone(),
        View::Compare => state.compared.list().first().cloned(),
        View::Workbench => None,
    };
    match on_show {
        Some(open) => Target::Report {
            open,
            view: state.view,
        },
        None => Target::Dataset {
            dataset: state.dataset.clone(),
            source: state.dataset_source.clone(),
            report_corpus: state
                .report
                .as_ref()
                .map(|r| Rc::from(r.report.corpus_id.as_str())),
        },
    }
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

impl Target {
    /// What to tell the module.
    pub fn announced(&self) -> Announced {
        match self {
            Target::Report { open, view } => {
                let report = &open.report;
                let whose = match view {
                    View::Compare => "the baseline report of the comparison",
                    _ => "the report on show",
                };
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
            Target::Dataset {
                dataset,
                source,
                report_corpus,
            } => {
                let Some(d) = dataset else {
                    return Announced {
                        text: String::new(),
                        what: format!(
                            "the dataset in Run & score ({source}), which does not parse"
                        ),
                        note: String::new(),
                        hits: String::new(),
                    };
                };
                let note = match report_corpus {
                    Some(c) if **c != *d.corpus_id => format!(
                        "This dataset is for {}, but the report open in this page is for {c}: if the \
                         open PDF is that report's document, these findings compare the wrong pair. \
                         Open the Report view to check the report's own items.",
                        d.corpus_id
                    ),
                    _ => String::new(),
                };
                Announced {
                    text: d.to_value().to_string(),
                    what: format!(
                        "the dataset in Run & score ({source}, corpus {}, {} items)",
                        d.corpus_id,
                        d.items.len()
                    ),
                    note,
                    hits: String::new(),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Action;

    #[test]
    fn a_report_scored_here_hands_its_hits_to_the_audit_and_one_opened_from_a_file_none() {
        let d = octave_dataset();
        // Per item: a match with content on pages 3-4, one without content, one without pages.
        let capture: String = d
            .items
            .iter()
            .map(|it| {
                serde_json::json!({"query": it.question, "matches": [
                    {"chunk_id": "a", "content": "a   \"quoted\"\nline", "provenance": {"page_start": 3, "page_end": 4}},
                    {"chunk_id": "b", "provenance": {"page_start": 5, "page_end": 5}},
                    {"chunk_id": "c", "content": "no pages"}]})
                .to_string()
                    + "\n"
            })
            .collect();
        let (report, said) =
            crate::scoring::score_capture(&d, &capture, false, 2, figeval::RunInfo::default())
                .unwrap();
        let open = OpenReport {
            name: "here.json".into(),
            report: Shared::new(report),
            said: Some(said),
            key: 1,
        };
        let target = Target::Report {
            open: open.clone(),
            view: View::Report,
        };
        let hits: Vec<serde_json::Value> = serde_json::from_str(&target.announced().hits).unwrap();
        assert_eq!(
            hits.len(),
            d.items.len(),
            "one hit an item: content and pages"
        );
        assert_eq!(
            hits[0],
            serde_json::json!([3, 4, false, "a \"quoted\" line"])
        );
        let from_file = Target::Report {
            open: OpenReport { said: None, ..open },
            view: View::Report,
        };
        assert_eq!(from_file.announced().hits, "");
    }

    fn octave_dataset() -> Dataset {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../data/eval_datasets/octave-manual-figures.json"
        ))
        .unwrap();
        Dataset::parse(&text).unwrap()
    }

    fn octave_report() -> Report {
        let d = octave_dataset();
        let capture: String = d
            .items
            .iter()
            .map(|it| {
                let p = it.expected_pages[0].get();
                serde_json::json!({"query": it.question, "matches": [{"chunk_id": "c", "content": "x",
                    "provenance": {"page_start": p, "page_end": p}}]})
                .to_string()
                    + "\n"
            })
            .collect();
        let (report, _) =
            crate::scoring::score_capture(&d, &capture, false, 2, figeval::RunInfo::default())
                .unwrap();
        report
    }

    #[test]
    fn the_report_view_checks_the_open_reports_items_not_the_workbench_dataset() {
        let report = octave_report();
        let s = AppState::default().apply(Action::OpenReport {
            name: "octave.json".into(),
            text: report.to_json_pretty(),
        });
        assert_eq!(s.view, View::Report);
        let a = target(&s).announced();
        let d = Dataset::parse(&a.text).unwrap();
        assert_eq!(d.corpus_id, "octave-manual");
        assert_eq!(d.items.len(), report.per_item.len());
        assert_eq!(d.items[0].question, report.per_item[0].question);
        assert!(
            a.what
                .contains("the report on show (octave.json, corpus octave-manual, 33 items)"),
            "{}",
            a.what
        );
        assert!(a.note.is_empty());
    }

    #[test]
    fn the_workbench_checks_its_dataset_and_warns_when_the_open_report_is_for_another_corpus() {
        let s = crate::state::tests::started()
            .apply(Action::OpenReport {
                name: "octave.json".into(),
                text: octave_report().to_json_pretty(),
            })
            .apply(Action::Show(View::Workbench));
        let a = target(&s).announced();
        assert_eq!(Dataset::parse(&a.text).unwrap().corpus_id, "nasa-apollo-11");
        assert!(
            a.what.starts_with("the dataset in Run & score (bundled: "),
            "{}",
            a.what
        );
        assert!(
            a.note.contains(
                "for nasa-apollo-11, but the report open in this page is for octave-manual"
            ),
            "{}",
            a.note
        );
        // No report open: nothing to warn about.
        assert!(target(&AppState::default()).announced().note.is_empty());
    }

    #[test]
    fn the_document_view_checks_the_dataset_of_the_view_it_was_opened_from() {
        let on_report = AppState::default().apply(Action::OpenReport {
            name: "octave.json".into(),
            text: octave_report().to_json_pretty(),
        });
        let s = on_report.clone().apply(Action::ShowDocument);
        assert!(s.document);
        assert_eq!(target(&s), target(&on_report), "still the report's items");
        // Any other view takes the page back from the document tools.
        let s = s.apply(Action::Show(View::Compare));
        assert!(!s.document);
        assert_eq!(s.view, View::Compare);
    }

    #[test]
    fn the_same_state_gives_the_same_target_so_nothing_is_announced_twice() {
        let s = AppState::default();
        assert_eq!(
            target(&s),
            target(&s.clone().apply(Action::AllowMissing(true)))
        );
    }
}
