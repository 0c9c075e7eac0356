//! The reducer's tests: each action through [`WorkState::apply`], as the page dispatches it.

use super::*;
use crate::scoring::tests::{body, dataset};
use crate::search::envelope_line;
use figeval::Metric;

fn with_demo_dataset() -> WorkState {
    let text = dataset().to_value().to_string();
    WorkState::default().apply(Action::LoadDataset {
        source: "demo.json".into(),
        text: text.into(),
    })
}

/// A capture of the demo dataset, every item answered with one match citing `pages`.
fn demo_capture(pages: &[(u32, u32)]) -> String {
    dataset()
        .items
        .iter()
        .map(|it| body(&it.question, pages).to_string() + "\n")
        .collect()
}

/// The demo dataset scored offline, every item answered with one match citing `pages`.
fn scored_offline(pages: &[(u32, u32)]) -> WorkState {
    with_demo_dataset()
        .apply(Action::EditResponses(demo_capture(pages)))
        .apply(Action::ScoreOffline {
            started_at: "t".into(),
        })
}

fn start(s: WorkState, id: u64, resume: bool) -> WorkState {
    let config = s.settings.validate().unwrap();
    s.apply(Action::RunStarted {
        id,
        config,
        resume,
        started_at: "2024-01-01T00:00:00.000Z".into(),
        now_ms: 1000.0,
    })
}

fn answer(s: WorkState, id: u64, index: usize, pages: &[(u32, u32)]) -> WorkState {
    let q = s.dataset.as_ref().unwrap().items[index].question.clone();
    let config = s.settings.validate().unwrap();
    let line = envelope_line(&q, &config, &body(&q, pages).to_string());
    s.apply(Action::Received {
        id,
        index,
        line: line.into(),
        hit: true,
    })
}

/// The state once the first bundled dataset, fetched at start, has arrived.
pub(crate) fn started() -> WorkState {
    let first = &crate::datasets::BUNDLED[0];
    WorkState::default().apply(Action::FirstDataset {
        source: format!("bundled: {}", first.file),
        text: crate::datasets::TEXTS[0].into(),
    })
}

#[test]
fn the_app_opens_on_a_valid_bundled_dataset() {
    assert!(
        WorkState::default().dataset.is_none(),
        "fetched, not inside the app"
    );
    let s = started();
    assert!(s.dataset.is_some(), "{:?}", s.dataset_errors);
    assert!(s.dataset_source.starts_with("bundled: "));
    assert_eq!(s.run.total(), s.dataset.as_ref().unwrap().items.len());
}

#[test]
fn the_first_dataset_never_replaces_one_already_there() {
    let octave = crate::datasets::TEXTS[1];
    let first = |s: WorkState| {
        s.apply(Action::FirstDataset {
            source: "bundled: nasa-apollo-11-figures.json".into(),
            text: crate::datasets::TEXTS[0].into(),
        })
    };
    // The deployment's dataset came first.
    let s = first(WorkState::default().apply(Action::DefaultDataset {
        source: "bundled: octave-manual-figures.json".into(),
        text: octave.into(),
    }));
    assert_eq!(s.dataset.unwrap().corpus_id, "octave-manual");
    // The user's came first.
    let s = first(WorkState::default().apply(Action::EditDataset(octave.into())));
    assert_eq!(s.dataset.unwrap().corpus_id, "octave-manual");
    // And after it, the deployment's still replaces it.
    let s = started().apply(Action::DefaultDataset {
        source: "bundled: octave-manual-figures.json".into(),
        text: octave.into(),
    });
    assert_eq!(s.dataset.unwrap().corpus_id, "octave-manual");
}

#[test]
fn an_invalid_dataset_lists_every_error_as_figeval_words_it() {
    let text = r#"{"corpus_id": "", "items": [{"question": "q", "kind": "maybe"}]}"#;
    let s = WorkState::default().apply(Action::EditDataset(text.into()));
    assert!(s.dataset.is_none());
    let expected: Vec<String> = Dataset::parse(text)
        .unwrap_err()
        .0
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(expected.len() > 2);
    assert_eq!(*s.dataset_errors, expected);
}

#[test]
fn a_complete_live_run_shows_its_report_and_keeps_its_capture() {
    let mut s = start(with_demo_dataset(), 1, false);
    for i in 0..3 {
        s = answer(s, 1, i, &[(4, 4)]);
    }
    assert_eq!(s.run.done(), 3);
    let s = s.apply(Action::RunFinished {
        id: 1,
        now_ms: 3500.0,
    });
    assert_eq!(s.run.status, RunStatus::Finished);
    let handed = s.handed.as_ref().unwrap();
    assert_eq!(handed.key, 1, "handed to the app");
    let report = &handed.report;
    assert_eq!(report.summary.n, 3);
    assert_eq!(report.summary.hits(Metric::PageHitAt3), 1);
    assert_eq!(report.run.source, "live");
    assert_eq!(report.run.duration_s, 2.5);
    let kept = handed.capture.as_ref().unwrap();
    assert!(
        Rc::ptr_eq(kept, &s.run.lines),
        "the report shares the run's capture, not a copy"
    );
    assert_eq!(capture_text(kept).lines().count(), 3);
    assert_eq!(capture_text(kept), s.run.capture_text());
    let trec = &handed.trec;
    assert!(trec.made().is_none(), "made only when asked for");
    let want = figeval::trec::export_capture(&dataset(), &capture_text(kept));
    assert_eq!(trec.get(), &want.map_err(|e| e.to_string()));
}

#[test]
fn a_failure_stops_the_run_keeps_what_was_received_and_names_the_question() {
    let s = answer(start(with_demo_dataset(), 1, false), 1, 0, &[(4, 4)]);
    let s = s.apply(Action::RunFailed {
        id: 1,
        message: "The search for question \"What does the curve show?\" failed: HTTP 500".into(),
        now_ms: 2000.0,
    });
    assert!(matches!(s.run.status, RunStatus::Failed(_)));
    let banner = s.banner.1.as_ref().unwrap();
    assert!(banner.detail.contains("What does the curve show?"));
    assert!(banner.detail.contains("What was received is kept"));
    assert!(s.run.has_capture());
    assert_eq!(s.run.capture_text().lines().count(), 1);
    // An answer that was in flight when the run failed still lands in the capture…
    let s = answer(s, 1, 1, &[(9, 9)]);
    assert_eq!(s.run.done(), 2);
    // …but not one from an older run, nor one after a cancel.
    let s = answer(s, 0, 2, &[(2, 2)]);
    assert_eq!(s.run.done(), 2);
}

#[test]
fn a_resume_asks_only_for_the_rest_and_completes_the_same_capture() {
    let s = answer(start(with_demo_dataset(), 1, false), 1, 1, &[(9, 9)]);
    let s = s.apply(Action::RunCancelled {
        id: 1,
        now_ms: 2000.0,
    });
    assert!(s.run.can_resume());
    let s = answer(s, 1, 0, &[(4, 4)]);
    assert_eq!(s.run.done(), 1, "nothing lands after a cancel");
    let (_, pending) = s.plan_run(true).unwrap();
    assert_eq!(pending, vec![0, 2]);
    let mut s = start(s, 2, true);
    assert_eq!(s.run.done(), 1, "a resume keeps the capture");
    s = answer(s, 2, 0, &[(4, 4)]);
    s = answer(s, 2, 2, &[(2, 2)]);
    let s = s.apply(Action::RunFinished {
        id: 2,
        now_ms: 3000.0,
    });
    let report = &s.handed.as_ref().unwrap().report;
    assert_eq!(report.summary.hits(Metric::PageHitAt3), 3);
    // 1 s before the cancel, 2 s after the resume.
    assert_eq!(report.run.duration_s, 3.0);
}

#[test]
fn a_resume_with_other_search_settings_is_refused() {
    let s = answer(start(with_demo_dataset(), 1, false), 1, 1, &[(9, 9)]);
    let mut s = s.apply(Action::RunCancelled { id: 1, now_ms: 0.0 });
    s.settings.top_k = "10".into();
    let err = s.plan_run(true).unwrap_err();
    assert!(err.contains("settings changed"), "{err}");
    assert!(s.plan_run(false).is_ok(), "a new run is fine");
}

#[test]
fn a_run_is_refused_while_top_k_is_below_five() {
    let mut s = with_demo_dataset();
    s.settings.top_k = "3".into();
    assert!(s.plan_run(false).unwrap_err().contains("page_hit_at_5"));
}

#[test]
fn offline_scoring_failure_shows_the_capture_errors_text() {
    let s = with_demo_dataset()
        .apply(Action::EditResponses("not json\n".into()))
        .apply(Action::ScoreOffline {
            started_at: "t".into(),
        });
    let banner = s.banner.1.unwrap();
    assert!(
        banner.detail.starts_with("2 problems with the responses:"),
        "{}",
        banner.detail
    );
    assert!(banner.detail.contains("line 1, column 2: not valid JSON"));
    assert!(banner.detail.contains("3 items with no response"));
    assert!(s.handed.is_none());
}

#[test]
fn a_broken_line_in_pasted_responses_is_one_problem_naming_its_line_and_question() {
    let d = dataset();
    let mut lines: Vec<String> = d
        .items
        .iter()
        .map(|it| body(&it.question, &[(2, 4)]).to_string())
        .collect();
    // A hand edit that left a stray comma after the last match.
    lines[1] = lines[1].replacen("}]", "},]", 1);
    let s = with_demo_dataset()
        .apply(Action::EditResponses(lines.join("\n") + "\n"))
        .apply(Action::ScoreOffline {
            started_at: "t".into(),
        });
    let detail = s.banner.1.unwrap().detail;
    assert!(
        detail.starts_with(&format!(
            "1 problem with the responses:\n  line 2 (question \"{}\"), column ",
            d.items[1].question
        )),
        "{detail}"
    );
    assert!(detail.ends_with("; mend the line or delete it"), "{detail}");
    assert!(
        !detail.contains("no response"),
        "not counted again: {detail}"
    );
    assert!(!detail.contains("allow missing"), "{detail}");
}

#[test]
fn offline_scoring_hands_its_report_to_the_app() {
    let d = dataset();
    let text: String = d
        .items
        .iter()
        .map(|it| body(&it.question, &[(2, 4)]).to_string() + "\n")
        .collect();
    let s = with_demo_dataset()
        .apply(Action::EditResponses(text))
        .apply(Action::ScoreOffline {
            started_at: "t".into(),
        });
    let r = &s.handed.unwrap().report;
    assert_eq!(r.summary.hits(Metric::PageHitAt3), 2);
    assert_eq!(r.run.source, "pasted responses");
}

#[test]
fn offline_scoring_keeps_the_run_files_figeval_export_writes() {
    let s = scored_offline(&[(2, 4)]);
    let kept = s.handed.unwrap().trec;
    let want = figeval::trec::export_capture(&dataset(), &demo_capture(&[(2, 4)])).unwrap();
    assert!(kept.made().is_none(), "made only when asked for");
    assert_eq!(kept.get(), &Ok(want.clone()));
    assert!(want.run.contains("q1 Q0 p2 1 1 figeval\n"), "{}", want.run);
}

#[test]
fn a_partial_capture_scored_with_allow_missing_says_why_it_has_no_run_files() {
    let d = dataset();
    let first = &d.items[0].question;
    let s = with_demo_dataset()
        .apply(Action::EditResponses(
            body(first, &[(2, 2)]).to_string() + "\n",
        ))
        .apply(Action::AllowMissing(true))
        .apply(Action::ScoreOffline {
            started_at: "t".into(),
        });
    let trec = s.handed.unwrap().trec;
    let reason = trec.get().clone().unwrap_err();
    assert!(reason.contains("no response"), "{reason}");
}

#[test]
fn the_deployments_corpus_replaces_the_start_dataset_until_the_user_chooses_one() {
    let octave = r#"{"corpus_id": "octave-manual", "items": [{"question": "Q?", "expected_pages": [2], "figure_ref": "Figure 1.1", "kind": "locate"}]}"#;
    let default = |s: WorkState| {
        s.apply(Action::DefaultDataset {
            source: "bundled: octave-manual-figures.json".into(),
            text: octave.into(),
        })
    };
    let s = default(WorkState::default());
    assert_eq!(s.dataset.as_ref().unwrap().corpus_id, "octave-manual");
    assert!(!s.dataset_chosen);
    // A dataset the user loaded stays.
    let s = default(with_demo_dataset());
    assert_eq!(s.dataset.as_ref().unwrap().corpus_id, dataset().corpus_id);
}

#[test]
fn a_deployment_serving_another_corpus_is_said_before_the_run() {
    let s = with_demo_dataset();
    let base = s.settings.base_url.clone();
    let served = |s: WorkState, base: &str, corpus: Option<&str>| {
        s.apply(Action::Served {
            base_url: base.into(),
            corpus_id: corpus.map(Into::into),
        })
    };
    let s = served(s, &base, Some("octave-manual"));
    let (said, ours) = s.corpus_mismatch().unwrap();
    assert_eq!(
        (&*said, ours.as_str()),
        ("octave-manual", dataset().corpus_id.as_str())
    );
    // The same corpus, an answer for another base URL, or no answer: nothing to say.
    let corpus = dataset().corpus_id;
    assert!(served(s.clone(), &base, Some(&corpus))
        .corpus_mismatch()
        .is_none());
    assert!(served(s.clone(), "http://other/api", Some("x"))
        .corpus_mismatch()
        .is_none());
    assert!(served(s, &base, None).corpus_mismatch().is_none());
}

#[test]
fn a_capture_of_another_dataset_opens_with_one_line_naming_both_corpora() {
    let s = with_demo_dataset()
        .apply(Action::EditResponses(
            body("Which page shows the moon?", &[(2, 2)]).to_string() + "\n",
        ))
        .apply(Action::ScoreOffline {
            started_at: "t".into(),
        });
    let banner = s.banner.1.clone().unwrap();
    assert!(
        banner
            .detail
            .starts_with("this capture's one question is not in the dataset"),
        "{}",
        banner.detail
    );
    assert!(banner.more.unwrap().contains("not in the dataset"));
    assert_eq!(
        s.foreign_capture.as_ref().unwrap()[0],
        "Which page shows the moon?"
    );
    let s = s.apply(Action::CaptureCorpus("octave-manual".into()));
    let (n, banner) = s.banner.clone();
    assert_eq!(n, 1, "the same message, changed in place");
    let detail = banner.unwrap().detail;
    let first = detail.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "this capture is for octave-manual; the dataset is {}",
            dataset().corpus_id
        )
    );
}

#[test]
fn the_dataset_cannot_change_under_a_running_run() {
    let s = start(with_demo_dataset(), 1, false);
    let s = s.apply(Action::EditDataset("{}".into()));
    assert!(s.dataset.is_some());
}

#[test]
fn the_depth_typed_beside_offline_scoring_is_stated_in_the_report() {
    let with_top_k = |t: &str| {
        with_demo_dataset()
            .apply(Action::EditResponses(demo_capture(&[(2, 4)])))
            .apply(Action::OfflineTopK(t.into()))
            .apply(Action::ScoreOffline {
                started_at: "t".into(),
            })
    };
    // Blank: the depth is read from the answers, which record none.
    let r = with_top_k(" ").handed.unwrap().report;
    assert_eq!(r.top_k, None);
    let r = with_top_k("10").handed.unwrap().report;
    assert_eq!(r.top_k, Some(10));
    assert!(
        r.summary.ranking_note.is_none(),
        "{:?}",
        r.summary.ranking_note
    );
    let s = with_top_k("ten");
    assert!(s.handed.is_none());
    let detail = s.banner.1.unwrap().detail;
    assert!(
        detail.starts_with("top_k: \"ten\" is not a depth; give a whole number of 1 or more"),
        "{detail}"
    );
}
