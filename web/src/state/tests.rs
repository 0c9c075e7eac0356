//! The reducer's tests: each action through [`AppState::apply`], as the page dispatches it.

use super::*;
use figeval::snippet::{self, Snippet};
use figeval::{CaptureReader, Dataset, Metric, Pairing, RunInfo, ScoreConfig};

pub(crate) fn dataset() -> Dataset {
    Dataset::parse(&figeval_web_common::demo::dataset_json()).unwrap()
}

pub(crate) use figeval_web_common::demo::body;

/// `capture` of `d` scored as the workbench scores it, with what the matches said.
pub(crate) fn score(d: &Dataset, capture: &str) -> (Report, Vec<Vec<Snippet>>) {
    let config = ScoreConfig {
        max_precise_span_pages: 3,
    };
    let read = CaptureReader::read_str(Pairing::keeping(d, config, snippet::of_matches), capture);
    let (scored, said) = read.pairing.finish_keeping(false).unwrap();
    let mut report = Report::build(scored, RunInfo::default());
    // Unnamed, as a report from before names: the tests call reports by their files.
    report.run.name = None;
    (report, said)
}

/// The demo dataset's report, every item answered with one match citing `pages`.
pub(crate) fn scored(pages: &[(u32, u32)]) -> Report {
    let d = dataset();
    let text: String = d
        .items
        .iter()
        .map(|it| body(&it.question, pages).to_string() + "\n")
        .collect();
    score(&d, &text).0
}

/// The state once the workbench handed over the demo dataset's report (key 1, a live run).
fn handed(pages: &[(u32, u32)]) -> AppState {
    AppState::default().apply(Action::WorkReport {
        name: "live run".into(),
        text: scored(pages).to_json_pretty(),
        said: None,
        files: WorkFiles {
            key: 1,
            capture: true,
            unavailable: None,
        },
    })
}

#[test]
fn a_page_opens_on_its_links_view_and_otherwise_on_the_workbench() {
    assert_eq!(View::at_start(Some("#report=abc")), View::Report);
    assert_eq!(View::at_start(Some("#compare=abc")), View::Compare);
    assert_eq!(View::of_link("#compare=abc"), Some(View::Compare));
    assert_eq!(View::of_link("#pdf=x"), None);
    assert_eq!(View::at_start(Some("#pdf=x")), View::Workbench);
    assert_eq!(View::at_start(None), View::Workbench);
}

#[test]
fn a_report_the_workbench_scored_opens_the_report_view_with_its_files() {
    let s = AppState::default()
        .apply(Action::WorkBanner {
            n: 0,
            banner: Some(Banner {
                title: "old".into(),
                detail: "x".into(),
                more: None,
            }),
        })
        .apply(Action::Show(View::Workbench));
    let s = s.apply(Action::WorkReport {
        name: "live run".into(),
        text: scored(&[(4, 4)]).to_json_pretty(),
        said: None,
        files: WorkFiles {
            key: 3,
            capture: true,
            unavailable: None,
        },
    });
    assert_eq!(s.view, View::Report);
    assert!(s.banner.is_none(), "a report clears the banner");
    let open = s.report.as_ref().unwrap();
    assert_eq!(&*open.from, "live run");
    assert_eq!(open.report.summary.hits(Metric::PageHitAt3), 1);
    assert_eq!(s.report_files.as_ref().unwrap().key, 3);
    // Why the run files cannot be written lands on that report only.
    let other = s.clone().apply(Action::FilesUnavailable {
        key: 2,
        reason: "no".into(),
    });
    assert_eq!(other.report_files.unwrap().unavailable, None);
    let s = s.apply(Action::FilesUnavailable {
        key: 3,
        reason: "a span too wide".into(),
    });
    assert_eq!(
        s.report_files.unwrap().unavailable.as_deref(),
        Some("a span too wide")
    );
    // A report file opened in the workbench has none.
    let opened = AppState::default().apply(Action::OpenReport {
        name: "r.json".into(),
        text: scored(&[(4, 4)]).to_json_pretty(),
    });
    assert!(opened.report.is_some() && opened.report_files.is_none());
}

#[test]
fn the_workbenchs_banner_is_changed_in_place_only_while_it_is_on_show() {
    let said = |s: AppState, n: u32, detail: &str| {
        s.apply(Action::WorkBanner {
            n,
            banner: Some(Banner {
                title: "The responses cannot be scored".into(),
                detail: detail.into(),
                more: None,
            }),
        })
    };
    let s = said(handed(&[(4, 4)]), 1, "first");
    assert_eq!(s.banner.as_ref().unwrap().detail, "first");
    let s = said(s, 1, "changed");
    assert_eq!(s.banner.as_ref().unwrap().detail, "changed");
    // Dismissed: a change of the same message does not bring it back; a new one shows.
    let s = said(s.apply(Action::DismissBanner), 1, "again");
    assert!(s.banner.is_none());
    let s = said(s, 2, "new");
    assert_eq!(s.banner.as_ref().unwrap().detail, "new");
    // A clear (a run started) clears it.
    let s = s.apply(Action::WorkBanner { n: 3, banner: None });
    assert!(s.banner.is_none());
}

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
    let s = handed(&[(4, 4)]);
    let report = s.report.clone().unwrap().report;
    let fragment = figeval::share::fragment(&report).unwrap();
    let opened = AppState::default().apply(Action::OpenShareLink(link(&format!("#{fragment}"))));
    assert_eq!(*opened.report.unwrap().report, *report);
}

#[test]
fn a_comparison_link_shows_the_compare_view_and_leaves_the_report_alone() {
    let s = handed(&[(4, 4)]);
    let r = s.report.clone().unwrap().report;
    let fragment = figeval::share::compare_fragment(&[("a", &r), ("b", &r)]).unwrap();
    let s = s.apply(Action::OpenShareLink(link(&format!("#{fragment}"))));
    assert_eq!(s.view, View::Compare);
    assert_eq!(
        s.report.unwrap().report,
        r,
        "the runs module opens the comparison"
    );
}

#[test]
fn a_report_file_that_contradicts_its_items_is_refused_with_the_disagreement() {
    let s = handed(&[(4, 4)]);
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
        text,
    });
    assert!(s.report.is_none());
    let banner = s.banner.unwrap();
    assert_eq!(banner.title, "demo.json was refused");
    assert!(
        banner.detail.starts_with("this is a dataset, not a report"),
        "{}",
        banner.detail
    );
}

#[test]
fn a_stored_run_opens_with_its_name_and_labels_and_a_refusal_says_why_in_words() {
    use figeval_web_common::api::Answer;
    let report = scored(&[(4, 4)]);
    let answer = |status, text: &str, report: Option<String>| {
        Ok(Answer {
            status,
            text: text.into(),
            json: true,
            report,
        })
    };
    let s = AppState::default().apply(Action::OpenRun {
        id: "abc".into(),
        answer: answer(
            200,
            r#"{"id":"abc","name":"<b>nightly</b>","labels":{"branch":"main"}}"#,
            Some(report.to_json_pretty()),
        ),
    });
    assert_eq!(s.view, View::Report);
    let open = s.report.unwrap();
    assert_eq!(&*open.name, "<b>nightly</b>");
    let stored = open.stored.unwrap();
    assert_eq!(
        (stored.id.as_str(), stored.labels.clone()),
        ("abc", vec![("branch".to_string(), "main".to_string())])
    );
    // The report as stored, called by the server's name for the run, which its share links
    // and downloads carry too.
    let mut named = report.clone();
    named.run.name = Some("<b>nightly</b>".into());
    assert_eq!(*open.report, named);
    let missing = AppState::default().apply(Action::OpenRun {
        id: "nope".into(),
        answer: answer(404, r#"{"error":"not_found","detail":"x"}"#, None),
    });
    let banner = missing.banner.unwrap();
    assert_eq!(
        (banner.title.as_str(), banner.detail.as_str()),
        ("This run cannot be opened", "no run has the id \"nope\"")
    );
    let unreachable = AppState::default().apply(Action::OpenRun {
        id: "x".into(),
        answer: Err("the server could not be reached: TypeError".into()),
    });
    assert!(unreachable
        .banner
        .unwrap()
        .detail
        .contains("could not be reached"));
    assert_eq!(View::of_link("#run=abc"), Some(View::Report));
    assert_eq!(View::of_link("#runs=a,b"), Some(View::Compare));
}

#[test]
fn a_report_pushed_by_the_runs_module_becomes_a_stored_run_and_a_failure_shows_its_words() {
    let s = handed(&[(4, 4)]);
    let key = s.report.as_ref().unwrap().key;
    let other = s.clone().apply(Action::Pushed {
        key: key + 1,
        result: Ok("x".into()),
    });
    assert!(
        other.report.unwrap().stored.is_none(),
        "another report's push"
    );
    let s = s.apply(Action::Pushed {
        key,
        result: Ok("abc".into()),
    });
    assert_eq!(
        s.report.as_ref().unwrap().stored.as_ref().unwrap().id,
        "abc"
    );
    let s = s.apply(Action::Pushed {
        key,
        result: Err("forbidden words".into()),
    });
    let b = s.banner.unwrap();
    assert_eq!(
        (b.title.as_str(), b.detail.as_str()),
        ("The report could not be pushed", "forbidden words")
    );
}

#[test]
fn a_named_report_is_called_by_its_run_and_renaming_it_renames_the_run() {
    let mut r = scored(&[(4, 4)]);
    r.run.name = Some("figures on".into());
    let s = AppState::default().apply(Action::OpenReport {
        name: "octave-figures-on.json".into(),
        text: r.to_json_pretty(),
    });
    let open = s.report.clone().unwrap();
    assert_eq!(
        (&*open.name, &*open.from),
        ("figures on", "octave-figures-on.json")
    );
    // Renamed on show: the report itself (its downloads and share links) carries the name.
    let s = s.apply(Action::RenameReport("  reranker on ".into()));
    let open = s.report.clone().unwrap();
    assert_eq!(&*open.name, "reranker on");
    assert_eq!(open.report.run.name.as_deref(), Some("reranker on"));
    let fragment = figeval::share::fragment(&open.report).unwrap();
    let shared = figeval::share::decode_fragment(&fragment).unwrap();
    assert_eq!(shared.run.name.as_deref(), Some("reranker on"));
    // A blank name is not taken.
    let s = s.apply(Action::RenameReport("   ".into()));
    assert_eq!(&*s.report.clone().unwrap().name, "reranker on");
}
