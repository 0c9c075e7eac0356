//! The reducer's tests: each action through [`AppState::apply`], as the page dispatches it.

use super::*;
use figeval::snippet::{self, Snippet};
use figeval::{CaptureReader, Metric, Pairing, RunInfo, ScoreConfig};

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
    (Report::build(scored, RunInfo::default()), said)
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
    assert_eq!(View::at_start(Some("#pdf=x")), View::Workbench);
    assert_eq!(View::at_start(None), View::Workbench);
}

#[test]
fn a_report_the_workbench_scored_opens_the_report_view_with_its_files() {
    let s = AppState::default()
        .apply(Action::Error {
            title: "old".into(),
            detail: "x".into(),
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
    assert_eq!(&*open.name, "live run");
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
    let s = handed(&[(4, 4)]);
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
