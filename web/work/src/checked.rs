//! What the document module's dataset check reads while nothing with items of its own is on
//! show in the app (the workbench's view, or an empty report or compare view): the dataset
//! loaded here. The module is warned when it is for another corpus than the report open in the
//! page (whose PDF is likely the one open).

use crate::state::WorkState;
use figeval_web_common::checked::Announced;

/// What to tell the module of the workbench's dataset.
pub fn announced(state: &WorkState) -> Announced {
    let source = &state.dataset_source;
    let Some(d) = &state.dataset else {
        return Announced {
            text: String::new(),
            what: format!("the dataset in Run & score ({source}), which does not parse"),
            note: String::new(),
            hits: String::new(),
        };
    };
    let note = match &state.checked.report_corpus {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, Checked};
    use figeval::Dataset;

    #[test]
    fn the_workbench_checks_its_dataset_and_warns_when_the_open_report_is_for_another_corpus() {
        let s = crate::state::tests::started().apply(Action::Checked(Checked {
            here: true,
            report_corpus: Some("octave-manual".into()),
        }));
        let a = announced(&s);
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
        let alone = s.apply(Action::Checked(Checked {
            here: true,
            report_corpus: None,
        }));
        assert!(announced(&alone).note.is_empty());
        // Nothing loaded: the check is told the dataset does not parse.
        assert!(announced(&WorkState::default()).text.is_empty());
    }
}
