//! Invariants of scoring, summaries and pairing, over generated matches and datasets, and
//! that no input makes the core panic.

use figeval::capture::{CaptureReader, Pairing};
use figeval::{
    compare, score_item, share, Dataset, Item, ItemRecord, Kind, Match, Metric, Page, PageSpan,
    Report, RequestInfo, Response, RunInfo, ScoreConfig, Scored,
};
use proptest::prelude::*;

/// What a report of `records` is built from, asked with `top_k`.
fn scored(records: Vec<ItemRecord>, top_k: Option<u32>) -> Scored {
    Scored {
        corpus_id: "c".into(),
        config: ScoreConfig::default(),
        request: RequestInfo {
            top_k,
            ..RequestInfo::default()
        },
        records,
        unscored: vec![],
        hits_without_page: None,
        connector: None,
    }
}

fn page() -> impl Strategy<Value = u32> {
    1u32..40
}

fn a_match() -> impl Strategy<Value = Match> {
    (
        proptest::option::weighted(0.85, (page(), 0u32..6)),
        prop_oneof![
            Just(None),
            Just(Some("figure".to_string())),
            Just(Some("text".to_string()))
        ],
        proptest::option::of("[a-zé ]{0,30}"),
    )
        .prop_map(|(pages, kind, summary)| Match {
            chunk_id: "c".into(),
            pages: pages
                .and_then(|(s, w)| PageSpan::new(Page::new(s.into())?, Page::new((s + w).into())?)),
            chunk_kind: kind,
            figure_summary: summary,
            content: None,
            file_path: None,
        })
}

fn an_item() -> impl Strategy<Value = Item> {
    (
        proptest::collection::vec(page(), 1..4),
        prop_oneof![Just(Kind::Locate), Just(Kind::Content)],
        any::<bool>(),
    )
        .prop_map(|(pages, kind, prose)| Item {
            question: "Which figure shows it?".into(),
            expected_pages: pages
                .into_iter()
                .map(|p| Page::new(p.into()).unwrap())
                .collect(),
            expected_locations: Vec::new(),
            figure_ref: "Figure 1".into(),
            kind,
            tags: if prose { vec!["prose".into()] } else { vec![] },
        })
}

proptest! {
    #[test]
    fn hit_metrics_imply_each_other(
        item in an_item(),
        matches in proptest::collection::vec(a_match(), 0..12),
        span in 1u32..6,
    ) {
        let r = score_item(&item, &matches, ScoreConfig { max_precise_span_pages: span });
        prop_assert!(!r.precise_page_hit_at_3 || r.page_hit_at_3, "precise ⇒ page hit at 3");
        prop_assert!(!r.figure_chunk_at_3 || r.page_hit_at_3, "figure chunk at 3 ⇒ page hit at 3");
        prop_assert!(!r.page_hit_at_3 || r.page_hit_at_5, "page hit at 3 ⇒ at 5");
        prop_assert_eq!(r.page_hit_at_3, r.first_hit_rank.is_some_and(|k| k <= 3));
        prop_assert_eq!(r.page_hit_at_5, r.first_hit_rank.is_some_and(|k| k <= 5));
        prop_assert_eq!(r.top.len(), matches.len().min(5));
        prop_assert_eq!(r.matches_returned as usize, matches.len());
        prop_assert!(r.figure_summaries_at_3.len() <= 3);
        prop_assert!(r.figure_summaries_at_3.iter().all(|s| s.chars().count() <= 200));
        let on_page = r.top.iter().take(3).any(|t| t.on_expected_page);
        prop_assert_eq!(on_page, r.page_hit_at_3);
    }

    #[test]
    fn summaries_count_at_most_n_hits_and_groups_partition_the_items(
        items in proptest::collection::vec((an_item(), proptest::collection::vec(a_match(), 0..8)), 1..30),
    ) {
        let records: Vec<_> = items
            .iter()
            .map(|(it, ms)| score_item(it, ms, ScoreConfig::default()))
            .collect();
        let report = Report::build(scored(records.clone(), Some(5)), RunInfo::default());
        let s = &report.summary;
        prop_assert_eq!(s.n as usize, records.len());
        for m in Metric::ALL {
            prop_assert!(s.hits(m) <= s.n);
            let counted = records.iter().filter(|r| r.hit(m)).count() as u64;
            prop_assert_eq!(s.hits(m), counted, "hits of {} against the records", m);
            prop_assert_eq!(
                s.rate(m),
                figeval::round4(counted as f64 / records.len() as f64),
                "rate of {} against hits / n",
                m
            );
            let group_hits: u64 = report.by_group.values().map(|g| g.hits(m)).sum();
            prop_assert_eq!(group_hits, s.hits(m), "group hits add up to overall for {}", m);
        }
        prop_assert!(s.hits(Metric::PrecisePageHitAt3) <= s.hits(Metric::PageHitAt3));
        prop_assert!(s.hits(Metric::PageHitAt3) <= s.hits(Metric::PageHitAt5));
        prop_assert!(s.hits(Metric::FigureChunkAt3) <= s.hits(Metric::PageHitAt3));
        let group_n: u64 = report.by_group.values().map(|g| g.n).sum();
        prop_assert_eq!(group_n, s.n, "groups partition the items");
        for g in report.by_group.keys() {
            prop_assert!(records.iter().any(|r| r.group == *g), "group {} has no item", g.name());
        }
        for r in &records {
            prop_assert!(report.by_group.contains_key(&r.group), "no summary for {}", r.group.name());
        }
        let rr: f64 = records.iter().filter_map(|r| r.first_hit_rank).map(|k| 1.0 / f64::from(k)).sum();
        prop_assert_eq!(s.page_mrr, figeval::round4(rr / records.len() as f64), "page_mrr against the first hit ranks");
    }

    #[test]
    fn a_report_survives_json_and_a_share_link(
        items in proptest::collection::vec((an_item(), proptest::collection::vec(a_match(), 0..6)), 1..10),
    ) {
        let records = items.iter().map(|(it, ms)| score_item(it, ms, ScoreConfig::default())).collect();
        let report = Report::build(scored(records, None), RunInfo::default());
        prop_assert_eq!(&Report::parse(&report.to_json_pretty()).unwrap(), &report);
        prop_assert_eq!(&share::decode_fragment(&share::fragment(&report).unwrap()).unwrap(), &report);
        let c = compare(&report, &report);
        prop_assert!(c.scopes.iter().all(|s| s.regressions().is_empty()));
    }

    #[test]
    fn no_text_makes_the_parsers_panic(text in "\\PC{0,200}") {
        let _ = Dataset::parse(&text);
        let _ = Response::parse(&text);
        let _ = Report::parse(&text);
        let _ = share::decode_fragment(&text);
        let d = Dataset::parse(r#"{"corpus_id":"c","items":[{"question":"q?","expected_pages":[1],"figure_ref":"F","kind":"locate"}]}"#).unwrap();
        let _ = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), &text).pairing.finish(true);
    }

    #[test]
    fn json_shaped_noise_never_panics_the_capture_reader(
        parts in proptest::collection::vec(prop_oneof![
            Just("{"), Just("}"), Just("["), Just("]"), Just(","), Just(":"), Just("\n"),
            Just("\"matches\""), Just("\"question\""), Just("\"response\""), Just("\"query\""),
            Just("\"provenance\""), Just("\"page_start\""), Just("\"page_end\""), Just("\"metadata\""),
            Just("\"q?\""), Just("1"), Just("-3"), Just("2.5"), Just("null"), Just("true"), Just("1e999"),
        ], 0..60),
    ) {
        let text: String = parts.concat();
        let d = Dataset::parse(r#"{"corpus_id":"c","items":[{"question":"q?","expected_pages":[1],"figure_ref":"F","kind":"locate"}]}"#).unwrap();
        let _ = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), &text).pairing.finish(false);
        let _ = Response::parse(&text);
    }
}

#[test]
fn deeply_nested_input_is_an_error_not_a_stack_overflow() {
    let deep = "[".repeat(100_000);
    assert!(Dataset::parse(&deep).is_err());
    assert!(Response::parse(&deep).is_err());
    let d = Dataset::parse(r#"{"corpus_id":"c","items":[{"question":"q?","expected_pages":[1],"figure_ref":"F","kind":"locate"}]}"#).unwrap();
    let text = format!("{{\"question\":\"q?\",\"response\":{{\"matches\":{deep}\n");
    let read = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), &text);
    assert!(read.pairing.finish(false).is_err());
}
