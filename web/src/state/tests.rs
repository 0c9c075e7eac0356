//! The reducer's tests: each action through [`AppState::apply`], as the page dispatches it.

use super::*;
use crate::scoring::tests::{body, dataset};
use crate::search::envelope_line;
use figeval::Metric;

fn with_demo_dataset() -> AppState {
    let text = dataset().to_value().to_string();
    AppState::default().apply(Action::LoadDataset {
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
fn scored_offline(pages: &[(u32, u32)]) -> AppState {
    with_demo_dataset()
        .apply(Action::EditResponses(demo_capture(pages)))
        .apply(Action::ScoreOffline {
            started_at: "t".into(),
        })
}

fn start(s: AppState, id: u64, resume: bool) -> AppState {
    let config = s.settings.validate().unwrap();
    s.apply(Action::RunStarted {
        id,
        config,
        resume,
        started_at: "2024-01-01T00:00:00.000Z".into(),
        now_ms: 1000.0,
    })
}

fn answer(s: AppState, id: u64, index: usize, pages: &[(u32, u32)]) -> AppState {
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
pub(crate) fn started() -> AppState {
    let first = &crate::datasets::BUNDLED[0];
    AppState::default().apply(Action::FirstDataset {
        source: format!("bundled: {}", first.file),
        text: crate::datasets::TEXTS[0].into(),
    })
}

#[test]
fn the_app_opens_on_a_valid_bundled_dataset() {
    assert!(
        AppState::default().dataset.is_none(),
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
    let first = |s: AppState| {
        s.apply(Action::FirstDataset {
            source: "bundled: nasa-apollo-11-figures.json".into(),
            text: crate::datasets::TEXTS[0].into(),
        })
    };
    // The deployment's dataset came first.
    let s = first(AppState::default().apply(Action::DefaultDataset {
        source: "bundled: octave-manual-figures.json".into(),
        text: octave.into(),
    }));
    assert_eq!(s.dataset.unwrap().corpus_id, "octave-manual");
    // The user's came first.
    let s = first(AppState::default().apply(Action::EditDataset(octave.into())));
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
    let s = AppState::default().apply(Action::EditDataset(text.into()));
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
    assert_eq!(s.view, View::Report);
    let report = &s.report.as_ref().unwrap().report;
    assert_eq!(report.summary.n, 3);
    assert_eq!(report.summary.hits(Metric::PageHitAt3), 1);
    assert_eq!(report.run.source, "live");
    assert_eq!(report.run.duration_s, 2.5);
    let kept = s.report_capture.as_ref().unwrap();
    assert!(
        Rc::ptr_eq(kept, &s.run.lines),
        "the report shares the run's capture, not a copy"
    );
    assert_eq!(capture_text(kept).lines().count(), 3);
    assert_eq!(capture_text(kept), s.run.capture_text());
    let trec = s.report_trec.as_ref().unwrap();
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
    let banner = s.banner.as_ref().unwrap();
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
    let report = &s.report.as_ref().unwrap().report;
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
    let banner = s.banner.unwrap();
    assert!(
        banner.detail.starts_with("2 problems with the responses:"),
        "{}",
        banner.detail
    );
    assert!(banner.detail.contains("line 1, column 2: not JSON"));
    assert!(banner.detail.contains("3 items with no response"));
    assert!(s.report.is_none());
}

#[test]
fn offline_scoring_opens_the_report_view() {
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
    assert_eq!(s.view, View::Report);
    let r = &s.report.unwrap().report;
    assert_eq!(r.summary.hits(Metric::PageHitAt3), 2);
    assert_eq!(r.run.source, "pasted responses");
}

#[test]
fn offline_scoring_keeps_the_run_files_figeval_export_writes() {
    let s = scored_offline(&[(2, 4)]);
    let kept = s.report_trec.clone().unwrap();
    let want = figeval::trec::export_capture(&dataset(), &demo_capture(&[(2, 4)])).unwrap();
    assert!(kept.made().is_none(), "made only when asked for");
    assert_eq!(kept.get(), &Ok(want.clone()));
    assert!(want.run.contains("q1 Q0 p2 1 1 figeval\n"), "{}", want.run);
    // A report opened from a file has no responses at hand.
    let json = s.report.unwrap().report.to_json_pretty();
    let opened = s_open(&json);
    assert!(opened.report.is_some());
    assert!(opened.report_trec.is_none());
}

fn s_open(json: &str) -> AppState {
    AppState::default().apply(Action::OpenReport {
        name: "r.json".into(),
        text: json.into(),
    })
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
    assert!(s.report.is_some());
    let trec = s.report_trec.unwrap();
    let reason = trec.get().clone().unwrap_err();
    assert!(reason.contains("no response"), "{reason}");
}

/// What a link holds, as the page reads it (the core inflating here).
fn link(fragment: &str) -> Result<Link, ShareError> {
    figeval::share::decode_link(fragment)
}

#[test]
fn a_corrupt_share_link_shows_a_message_and_keeps_the_state() {
    let s = AppState::default().apply(Action::OpenShareLink(link("#report=%%%")));
    assert!(s.report.is_none());
    assert_eq!(s.banner.unwrap().title, "This share link cannot be opened");
}

#[test]
fn a_share_link_round_trips_a_report() {
    let s = scored_offline(&[(4, 4)]);
    let report = s.report.clone().unwrap().report;
    let fragment = figeval::share::fragment(&report).unwrap();
    let opened = AppState::default().apply(Action::OpenShareLink(link(&format!("#{fragment}"))));
    assert_eq!(*opened.report.unwrap().report, *report);
}

fn scored(pages: &[(u32, u32)]) -> Report {
    let text: String = dataset()
        .items
        .iter()
        .map(|it| body(&it.question, pages).to_string() + "\n")
        .collect();
    let s = with_demo_dataset()
        .apply(Action::EditResponses(text))
        .apply(Action::ScoreOffline {
            started_at: "t".into(),
        });
    (*s.report.unwrap().report).clone()
}

#[test]
fn a_compare_link_opens_the_compare_view_on_all_its_reports_in_order() {
    let (a, b, c) = (scored(&[(4, 4)]), scored(&[(9, 9)]), scored(&[(2, 2)]));
    let fragment =
        figeval::share::compare_fragment(&[("before.json", &a), ("after.json", &b), ("c", &c)])
            .unwrap();
    let s = AppState::default().apply(Action::OpenShareLink(link(&format!("#{fragment}"))));
    assert_eq!(s.view, View::Compare);
    assert!(s.banner.is_none());
    let names: Vec<String> = s
        .compared
        .list()
        .iter()
        .map(|o| o.name.to_string())
        .collect();
    assert_eq!(
        names,
        ["before.json", "after.json", "c"],
        "all of them, in order"
    );
    let before = s.compared.slot(Slot::Before).cloned().unwrap();
    let after = s.compared.slot(Slot::After).cloned().unwrap();
    assert_eq!((&*before.name, &*before.report), ("before.json", &a));
    assert_eq!((&*after.name, &*after.report), ("after.json", &b));
    assert_eq!(s.compared.list().len(), 3);
    assert_eq!(*s.compared.list()[2].report, c);
    assert!(s.report.is_none(), "the report view is left alone");
}

#[test]
fn reports_are_added_removed_reordered_and_made_the_baseline_in_order() {
    let (a, b, c) = (scored(&[(4, 4)]), scored(&[(9, 9)]), scored(&[(2, 2)]));
    let names = |s: &AppState| {
        s.compared
            .list()
            .iter()
            .map(|o| o.name.to_string())
            .collect::<Vec<_>>()
    };
    let add = |s: AppState, name: &str, r: &Report| {
        s.apply(Action::AddCompare {
            name: name.into(),
            text: Some(r.to_json_pretty()),
        })
    };
    let s = add(add(add(AppState::default(), "a", &a), "b", &b), "c", &c);
    assert_eq!(s.view, View::Compare);
    assert_eq!(names(&s), ["a", "b", "c"]);
    assert_eq!(
        *s.compared.slot(Slot::Before).unwrap().report,
        a,
        "the first is the baseline"
    );
    let s = s.apply(Action::MoveCompare { from: 2, to: 0 });
    assert_eq!(names(&s), ["c", "a", "b"]);
    assert_eq!(*s.compared.slot(Slot::Before).unwrap().report, c);
    assert_eq!(*s.compared.slot(Slot::After).unwrap().report, a);
    let s = s.apply(Action::MoveCompare { from: 1, to: 2 });
    assert_eq!(names(&s), ["c", "b", "a"]);
    let s = s.apply(Action::RemoveCompare(0));
    assert_eq!(names(&s), ["b", "a"]);
    assert!(
        s.compared.list().len() == 2,
        "two reports: before and after, as before"
    );
    assert_eq!(&*s.compared.slot(Slot::Before).unwrap().name, "b");
    // Out of range: nothing moves.
    let s = s
        .apply(Action::MoveCompare { from: 5, to: 0 })
        .apply(Action::MoveCompare { from: 0, to: 2 })
        .apply(Action::RemoveCompare(9));
    assert_eq!(names(&s), ["b", "a"]);
    // A file that is not a report is refused and nothing is added.
    let s = s.apply(Action::AddCompare {
        name: "bad.json".into(),
        text: Some("{".into()),
    });
    assert_eq!(names(&s), ["b", "a"]);
    assert_eq!(s.banner.as_ref().unwrap().title, "bad.json was refused");
    // The current report: none on show adds nothing.
    let s = AppState::default().apply(Action::AddCompare {
        name: "current report".into(),
        text: None,
    });
    assert!(s.compared.list().is_empty());
}

#[test]
fn each_report_compared_keeps_its_own_key_through_moves_even_the_same_report_twice() {
    let a = scored(&[(4, 4)]);
    let current = |s: AppState| {
        s.apply(Action::AddCompare {
            name: "current report".into(),
            text: None,
        })
    };
    let s = AppState::default().apply(Action::OpenReport {
        name: "a.json".into(),
        text: a.to_json_pretty(),
    });
    let s = current(current(current(s)));
    let keys = |s: &AppState| s.compared.list().iter().map(|o| o.key).collect::<Vec<_>>();
    let was = keys(&s);
    assert_eq!(was.len(), 3);
    assert!(
        was[0] != was[1] && was[1] != was[2] && was[0] != was[2],
        "{was:?}"
    );
    assert!(!was.contains(&s.report.as_ref().unwrap().key));
    let s = s.apply(Action::MoveCompare { from: 0, to: 2 });
    assert_eq!(
        keys(&s),
        [was[1], was[2], was[0]],
        "a key moves with its report"
    );
}

#[test]
fn a_corrupt_compare_link_shows_a_message_and_keeps_the_comparison() {
    let (a, b) = (scored(&[(4, 4)]), scored(&[(9, 9)]));
    let good = figeval::share::compare_fragment(&[("a", &a), ("b", &b)]).unwrap();
    let s = AppState::default()
        .apply(Action::OpenShareLink(link(&format!("#{good}"))))
        .apply(Action::OpenShareLink(link("#compare=%%%")));
    let banner = s.banner.unwrap();
    assert_eq!(banner.title, "This share link cannot be opened");
    assert_eq!(
        banner.detail,
        "this link is damaged (it was cut or changed)"
    );
    let more = banner.more.unwrap();
    assert!(more.contains("not base64url"), "{more}");
    assert_eq!(&*s.compared.slot(Slot::Before).cloned().unwrap().name, "a");
}

#[test]
fn a_report_file_that_contradicts_its_items_is_refused_with_the_disagreement() {
    let s = scored_offline(&[(4, 4)]);
    let mut v = serde_json::to_value(&*s.report.as_ref().unwrap().report).unwrap();
    let hits = v["page_hit_at_3_hits"].clone();
    v["page_hit_at_3_hits"] = 999.into();
    v.as_object_mut().unwrap().remove("page_hit_at_3_ci");
    let opened = AppState::default().apply(Action::OpenReport {
        name: "tampered.json".into(),
        text: v.to_string(),
    });
    assert!(opened.report.is_none());
    let banner = opened.banner.unwrap();
    assert_eq!(banner.title, "tampered.json was refused");
    assert!(
        banner.detail.ends_with(&format!(
            "page_hit_at_3_hits is 999 but per_item gives {hits}"
        )),
        "{}",
        banner.detail
    );
}

#[test]
fn a_dataset_given_where_a_report_belongs_is_named_as_a_dataset() {
    let text = dataset().to_value().to_string();
    let s = AppState::default().apply(Action::OpenReport {
        name: "demo.json".into(),
        text: text.clone(),
    });
    assert!(s.report.is_none());
    let banner = s.banner.unwrap();
    assert_eq!(banner.title, "demo.json was refused");
    assert!(
        banner.detail.starts_with("this is a dataset, not a report"),
        "{}",
        banner.detail
    );
    let s = AppState::default().apply(Action::AddCompare {
        name: "demo.json".into(),
        text: Some(text),
    });
    let detail = s.banner.unwrap().detail;
    assert!(
        detail.starts_with("this is a dataset, not a report"),
        "{detail}"
    );
}

#[test]
fn the_current_report_can_be_compared_with_a_file() {
    let s = scored_offline(&[(4, 4)]);
    let json = s.report.as_ref().unwrap().report.to_json_pretty();
    let s = s
        .apply(Action::SetCompare {
            slot: Slot::Before,
            name: "current".into(),
            text: None,
        })
        .apply(Action::SetCompare {
            slot: Slot::After,
            name: "after.json".into(),
            text: Some(json),
        });
    assert_eq!(s.view, View::Compare);
    assert!(s.compared.slot(Slot::Before).is_some() && s.compared.slot(Slot::After).is_some());
    let s = s.apply(Action::SetCompare {
        slot: Slot::After,
        name: "bad.json".into(),
        text: Some("{".into()),
    });
    assert!(s.banner.unwrap().title.contains("bad.json"));
    assert_eq!(
        &*s.compared.slot(Slot::After).cloned().unwrap().name,
        "after.json",
        "a bad file leaves the slot alone"
    );
}

#[test]
fn the_deployments_corpus_replaces_the_start_dataset_until_the_user_chooses_one() {
    let octave = r#"{"corpus_id": "octave-manual", "items": [{"question": "Q?", "expected_pages": [2], "figure_ref": "Figure 1.1", "kind": "locate"}]}"#;
    let default = |s: AppState| {
        s.apply(Action::DefaultDataset {
            source: "bundled: octave-manual-figures.json".into(),
            text: octave.into(),
        })
    };
    let s = default(AppState::default());
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
    let served = |s: AppState, base: &str, corpus: Option<&str>| {
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
    let banner = s.banner.clone().unwrap();
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
    let detail = s.banner.unwrap().detail;
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
