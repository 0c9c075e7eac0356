//! Capture pairing on arbitrary text (contract §6): never panics; whatever `finish` accepts is
//! consistent with the dataset and builds a report that survives JSON and share-link round
//! trips. `Response::parse` on the same text (and on each line) never panics either.
//!
//! Input: `DATASET \0 CAPTURE` uses DATASET when it is a valid dataset (else the fixed one);
//! input without a NUL byte is all capture, paired to a fixed 3-item dataset (one item per
//! group) with short questions the fuzzer can find.
#![no_main]

#[path = "common.rs"]
mod common;

use figeval::{CaptureReader, Dataset, Pairing, Report, Response, RunInfo, ScoreConfig, Scored};
use libfuzzer_sys::fuzz_target;

const FIXED: &str = r#"{"corpus_id":"c","items":[
{"question":"a?","expected_pages":[1],"figure_ref":"Figure 1","kind":"locate","tags":["figure"]},
{"question":"b?","expected_pages":[2,3],"figure_ref":"Figure 2","kind":"content"},
{"question":"c?","expected_pages":[4],"figure_ref":"Section 1","kind":"locate","tags":["prose"]}]}"#;

fn check_scored(d: &Dataset, s: &Scored, allow_missing: bool) {
    assert!(
        !s.records.is_empty() || !s.unscored.is_empty(),
        "an Ok with nothing in it"
    );
    assert_eq!(
        s.records.len() + s.unscored.len(),
        d.items.len(),
        "every item is scored or unscored"
    );
    if !allow_missing {
        assert!(
            s.unscored.is_empty(),
            "unscored items without allow_missing"
        );
    }
    // Records and unscored questions come in dataset order and partition the items.
    let (mut r, mut u) = (s.records.iter().peekable(), s.unscored.iter().peekable());
    for it in &d.items {
        if r.peek().is_some_and(|rec| rec.question == it.question) {
            let rec = r.next().unwrap();
            assert_eq!(rec.group, it.group());
            assert_eq!(rec.kind, it.kind);
            assert_eq!(
                rec.expected_pages,
                it.expected_pages
                    .iter()
                    .map(|p| p.get())
                    .collect::<Vec<_>>()
            );
            assert!(rec.top.len() <= 5 && rec.top.len() <= rec.matches_returned as usize);
            assert!(rec.figure_summaries_at_3.len() <= 3);
            assert!(rec
                .figure_summaries_at_3
                .iter()
                .all(|s| s.chars().count() <= 200));
            for (i, row) in rec.top.iter().enumerate() {
                assert_eq!(row.rank as usize, i + 1);
                match (row.page_start, row.page_end, row.span_pages) {
                    (Some(a), Some(b), Some(n)) => assert!(a >= 1 && a <= b && n == b - a + 1),
                    (None, None, None) => assert!(!row.on_expected_page),
                    other => panic!("half a page span in a top row: {other:?}"),
                }
            }
            // The metrics nest: a precise or figure hit at 3 is a hit at 3, which is one at 5.
            assert!(!rec.precise_page_hit_at_3 || rec.page_hit_at_3);
            assert!(!rec.figure_chunk_at_3 || rec.page_hit_at_3);
            assert!(!rec.page_hit_at_3 || rec.page_hit_at_5);
            assert_eq!(
                rec.page_hit_at_5,
                rec.first_hit_rank.is_some_and(|k| k <= 5)
            );
            assert_eq!(
                rec.page_hit_at_3,
                rec.first_hit_rank.is_some_and(|k| k <= 3)
            );
        } else {
            assert_eq!(
                u.next(),
                Some(&it.question),
                "item neither scored nor unscored"
            );
        }
    }
    assert!(
        r.next().is_none() && u.next().is_none(),
        "records out of dataset order"
    );
}

fn pair(d: &Dataset, text: &str, allow_missing: bool) -> Result<Scored, figeval::CaptureErrors> {
    let p = CaptureReader::read_str(Pairing::new(d, ScoreConfig::default()), text).pairing;
    let answered = d
        .items
        .iter()
        .filter(|it| p.is_answered(&it.question))
        .count();
    assert_eq!(answered, p.records().iter().flatten().count());
    let has_errors = p.has_errors();
    let out = p.finish(allow_missing);
    if has_errors {
        assert!(out.is_err(), "has_errors() but finish succeeded");
    }
    out
}

fn report(d: &Dataset, s: Scored) -> Report {
    let n = s.records.len();
    let request = s.request.clone();
    let r = Report::build(
        s,
        RunInfo {
            source: "fuzz".into(),
            ..RunInfo::default()
        },
    );
    // The header states what the pairing scored with: the dataset's corpus, its settings.
    assert_eq!(r.corpus_id, d.corpus_id);
    assert_eq!(r.score_config(), ScoreConfig::default());
    // ... and the search parameters the responses recorded.
    assert_eq!(r.base_url, request.base_url, "base_url");
    assert_eq!(r.top_k, request.top_k, "top_k");
    assert_eq!(r.cache_mode, request.cache_mode, "cache_mode");
    assert_eq!(r.per_item.len(), n, "every record is in the report");
    common::check_report(&r);
    r
}

fuzz_target!(|data: &[u8]| {
    let fixed = Dataset::parse(FIXED).expect("the fixed dataset is valid");
    let (custom, capture) = match data.iter().position(|&b| b == 0) {
        Some(i) => (
            std::str::from_utf8(&data[..i])
                .ok()
                .and_then(|t| Dataset::parse(t).ok()),
            &data[i + 1..],
        ),
        None => (None, data),
    };
    let d = custom.as_ref().unwrap_or(&fixed);
    let text = String::from_utf8_lossy(capture);

    let _ = Response::parse(&text);
    for line in text.lines() {
        if let Ok(r) = Response::parse(line) {
            if let Ok(ms) = &r.matches {
                for m in ms {
                    if let Some(s) = m.pages {
                        assert!(s.start() <= s.end() && s.span_pages() >= 1);
                    }
                }
            }
        }
    }

    let strict = pair(d, &text, false);
    let lenient = pair(d, &text, true);
    let mut outcomes = vec![(lenient, true)];
    match (&strict, &outcomes[0].0) {
        // Same outcome: the report checks below need to run once only.
        (Ok(s), Ok(l)) => {
            assert!(
                s.unscored.is_empty(),
                "unscored items without allow_missing"
            );
            assert_eq!(s, l, "allow_missing changed a complete capture");
        }
        (Ok(_), Err(e)) => panic!("allowed missing, refused what was accepted strictly: {e}"),
        _ => outcomes.push((strict, false)),
    }
    for (out, allow) in outcomes {
        match out {
            Ok(s) => {
                check_scored(d, &s, allow);
                let r = report(d, s);
                common::check_json_round_trip(&r);
                common::check_share_round_trip(&r);
                let _ = figeval::render::report_text(&r, "fuzz");
            }
            Err(e) => {
                assert!(!e.0.is_empty(), "an Err with no problem in it");
                let _ = e.to_string();
            }
        }
    }
});
