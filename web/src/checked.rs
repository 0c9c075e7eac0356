//! What the document module's dataset check reads: the dataset of what is on screen. The
//! report view checks the open report's items (a report carries each item's question, pages
//! and figure reference); the compare view its baseline's, which the runs module announces
//! (web/runs). With no such report on show (the workbench, an empty report or compare view)
//! the check reads the workbench's dataset: the workbench module announces it (web/work),
//! told so through boot.js's `figevalWork`.

use std::rc::Rc;

use figeval_web_common::checked::{of_report, Announced};

use crate::state::{AppState, OpenReport, View};

/// What is checked, cheap to compare (pointers and keys): the app announces it again only
/// when it changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// The items of the report on show in the report view.
    Report(OpenReport),
    /// The baseline of the comparison on show, which the runs module announces.
    Compared,
    /// The dataset of the workbench, which the workbench module announces.
    Workbench {
        /// The corpus of the report open in the page, when one is.
        report_corpus: Option<Rc<str>>,
    },
}

/// The dataset the check should read for the state on show.
pub fn target(state: &AppState) -> Target {
    match (state.view, &state.report) {
        (View::Report, Some(open)) => Target::Report(open.clone()),
        (View::Compare, _) if state.compared > 0 => Target::Compared,
        (_, report) => Target::Workbench {
            report_corpus: report
                .as_ref()
                .map(|r| Rc::from(r.report.corpus_id.as_str())),
        },
    }
}

impl Target {
    /// What the app tells the module (`None`: another module tells it).
    pub fn announced(&self) -> Option<Announced> {
        match self {
            Target::Report(open) => Some(of_report(open, "the report on show")),
            Target::Compared | Target::Workbench { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Action;
    use figeval::{Dataset, Report};

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
        let (report, said) = crate::state::tests::score(&d, &capture);
        let open = OpenReport {
            name: "here".into(),
            from: "here.json".into(),
            report: crate::shared::Shared::new(report),
            said: Some(crate::shared::Shared::new(said)),
            key: 1,
            stored: None,
        };
        let target = Target::Report(open.clone());
        let hits: Vec<serde_json::Value> =
            serde_json::from_str(&target.announced().unwrap().hits).unwrap();
        assert_eq!(
            hits.len(),
            d.items.len(),
            "one hit an item: content and pages"
        );
        assert_eq!(
            hits[0],
            serde_json::json!([3, 4, false, "a \"quoted\" line", null])
        );
        let from_file = Target::Report(OpenReport { said: None, ..open });
        assert_eq!(from_file.announced().unwrap().hits, "");
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
        crate::state::tests::score(&d, &capture).0
    }

    #[test]
    fn the_report_view_checks_the_open_reports_items_not_the_workbench_dataset() {
        let report = octave_report();
        let s = AppState::default().apply(Action::OpenReport {
            name: "octave.json".into(),
            text: report.to_json_pretty(),
        });
        assert_eq!(s.view, View::Report);
        let a = target(&s).announced().unwrap();
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
    fn with_no_report_on_show_the_workbench_announces_its_dataset_with_the_reports_corpus() {
        let s = AppState::default().apply(Action::OpenReport {
            name: "octave.json".into(),
            text: octave_report().to_json_pretty(),
        });
        let s = s.apply(Action::Show(View::Workbench));
        assert_eq!(
            target(&s),
            Target::Workbench {
                report_corpus: Some("octave-manual".into())
            }
        );
        assert_eq!(
            target(&s).announced(),
            None,
            "the workbench module tells it"
        );
        // An empty compare view too; one that compares reports reads its baseline, which the
        // runs module announces.
        let s = s.apply(Action::Show(View::Compare));
        assert!(matches!(target(&s), Target::Workbench { .. }));
        let s = s.apply(Action::Compared(1));
        assert_eq!(target(&s), Target::Compared);
        assert_eq!(target(&s).announced(), None);
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
        assert_eq!(target(&s), target(&s.clone().apply(Action::DismissBanner)));
    }
}
