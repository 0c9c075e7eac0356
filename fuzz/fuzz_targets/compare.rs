//! Compare (contract §7) on two arbitrary reports. The input is `BEFORE \0 AFTER` (without a NUL
//! byte it is one report, compared with itself). Each side goes through `Report::parse`; when
//! both parse, `compare` and both renderers must not panic and the comparison must be
//! consistent: p-values in 0..=1, `regressed` exactly when the after rate is lower, a report
//! compared with itself shows no movement, and swapping the sides swaps gained and lost.
#![no_main]

#[path = "common.rs"]
mod common;

use figeval::render::{comparison_markdown, comparison_text, report_text};
use figeval::{compare, Comparison, Report, Scope};
use libfuzzer_sys::fuzz_target;

fn check_comparison(c: &Comparison, before: &Report, after: &Report) {
    assert_eq!(c.scopes.first().map(|s| s.scope), Some(Scope::Overall));
    assert_eq!(c.reading_guide.len(), figeval::compare::READING_GUIDE.len());
    for s in &c.scopes {
        for (m, d) in s.metrics.iter() {
            assert_eq!(d.metric, m, "{}: the row of {m} is another metric's", s.scope);
            assert!(
                (0.0..=1.0).contains(&d.p_value),
                "{}: {}: p = {}",
                s.scope,
                d.metric,
                d.p_value
            );
            assert_eq!(d.regressed, d.after < d.before, "{}: {}", s.scope, d.metric);
            assert!(d.delta.is_finite() && (-1.0..=1.0).contains(&d.delta));
            let (g, l) = (d.gained.len() as u64, d.lost.len() as u64);
            if g + l == 0 {
                assert_eq!(d.p_value, 1.0);
            }
            assert!(g + l <= s.paired as u64);
        }
        assert!(s.page_mrr.delta.is_finite());
        let _ = s.regressions();
    }
    let overall = &c.scopes[0];
    assert_eq!(overall.n_before, before.summary.n);
    assert_eq!(overall.n_after, after.summary.n);
    assert_eq!(
        overall.paired + c.unpaired_after.len(),
        after.per_item.len(),
        "every after item is paired or unpaired"
    );
    let text = comparison_text(c, "before<script>", "after|`*");
    assert!(text.starts_with("figeval compare: "));
    let md = comparison_markdown(c, "before<script>", "after|`*");
    assert!(md.starts_with("## figeval compare: "));
    assert!(!md.contains("<script>"), "a label became markup");
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn unique_questions(r: &Report) -> bool {
    let mut seen = std::collections::HashSet::new();
    r.per_item
        .iter()
        .all(|it| seen.insert(it.question.as_str()))
}

fn check_self(r: &Report) {
    let c = compare(r, r);
    check_comparison(&c, r, r);
    // With a question listed twice, pairing by question is ambiguous (a parsed report may do
    // that; a built one cannot), so gains and losses are only checked without duplicates.
    let unique = unique_questions(r);
    for s in &c.scopes {
        for d in s.metrics.values() {
            assert_eq!(
                d.delta, 0.0,
                "{}: {} moved against itself",
                s.scope, d.metric
            );
            assert!(
                !d.regressed,
                "{}: {} regressed against itself",
                s.scope, d.metric
            );
            if unique {
                assert!(d.gained.is_empty() && d.lost.is_empty());
                assert_eq!(d.p_value, 1.0);
            }
        }
        assert_eq!(s.page_mrr.delta, 0.0);
    }
    assert!(c.unpaired_before.is_empty() && c.unpaired_after.is_empty());
    let _ = report_text(r, "self");
}

fuzz_target!(|data: &[u8]| {
    let (a, b) = match data.iter().position(|&x| x == 0) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let Ok(before) = Report::parse(&String::from_utf8_lossy(a)) else {
        return;
    };
    common::check_report(&before);
    common::check_json_round_trip(&before);
    check_self(&before);
    let Some(b) = b else {
        return;
    };
    let Ok(after) = Report::parse(&String::from_utf8_lossy(b)) else {
        return;
    };
    common::check_report(&after);
    let c = compare(&before, &after);
    check_comparison(&c, &before, &after);
    let back = compare(&after, &before);
    check_comparison(&back, &after, &before);
    if unique_questions(&before) && unique_questions(&after) {
        let (o, ob) = (&c.scopes[0], &back.scopes[0]);
        assert_eq!(o.paired, ob.paired);
        for (d, db) in o.metrics.values().zip(ob.metrics.values()) {
            assert_eq!(
                sorted(d.gained.clone()),
                sorted(db.lost.clone()),
                "{}",
                d.metric
            );
            assert_eq!(
                sorted(d.lost.clone()),
                sorted(db.gained.clone()),
                "{}",
                d.metric
            );
            assert_eq!(d.p_value, db.p_value, "{}: McNemar is symmetric", d.metric);
        }
        assert_eq!(
            sorted(c.unpaired_before.clone()),
            sorted(back.unpaired_after.clone())
        );
    }
});
