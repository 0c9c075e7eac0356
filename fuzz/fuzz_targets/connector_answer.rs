//! An answer read through a connector's mapping (contract §14.1, §14.3): JSON Pointer reading,
//! page numbering and printed page labels, on arbitrary input.
//!
//! Input: a byte choosing a preset (and the page count of the label table below), then
//! `CONNECTOR \0 ANSWER \0 LABELS`. The connector is the CONNECTOR part when it is a valid
//! connector file, else the chosen preset; LABELS (one label a line) are the PDF's page labels
//! when there are any. Checks:
//!
//! - `Reader::read_answer` never panics, reads the same with and without `probe`, reads any
//!   JSON `serde_json` reads, and refuses text that is not JSON.
//! - Where the hits are: the one-pass reader agrees with `serde_json`'s own JSON Pointer
//!   (`Value::pointer`) on whether the hits pointer finds an array of objects, and on how many.
//! - Each hit's page: when `page_start` finds a whole number (or nothing, or no scalar) and the
//!   mapping has no `page_end`, the match's page is what the numbering makes of it, computed
//!   here from the value `serde_json` finds.
//! - A probe keeps one `Hit` per hit, ranked 1.., each holding the match scoring read;
//!   `probe_text` and `no_page_reason` render.
//! - The page-label table: `PageLabels::new` finds each label's first page, and
//!   `PageLabels::from_ranges` (ranges taken from the LABELS bytes) gives one label per page,
//!   each leading back to a page at or before its own.
#![no_main]

use figeval::connector::{self, LabelRange, LabelStyle, Numbering, Reader};
use figeval::{Connector, Page, PageLabels, ResponseProblem};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// The page `value` names under `numbering` when it is a whole number, `Some(None)` when it
/// names no page for sure (nothing found, or not a number or a string), `None` when the rule
/// for strings would decide (not checked here).
fn expected_page(
    value: Option<&Value>,
    numbering: Numbering,
    labels: Option<&PageLabels>,
) -> Option<Option<u32>> {
    let Some(v) = value else { return Some(None) };
    if v.is_string() {
        return None;
    }
    let Some(n) = v.as_i64() else {
        return Some(None);
    };
    Some(match numbering {
        Numbering::OneBased => Page::new(n).map(Page::get),
        Numbering::ZeroBased => n.checked_add(1).and_then(Page::new).map(Page::get),
        Numbering::Label => labels
            .and_then(|l| l.page_of(&n.to_string()))
            .map(Page::get),
    })
}

fn check_answer(reader: &Reader, labels: Option<&PageLabels>, answer: &str) {
    let read = reader.read_answer(answer, false);
    let probed = reader.read_answer(answer, true);
    // JSON that serde_json reads whole is read; text that is not JSON even where it is only
    // skipped is refused. (In between: a lone surrogate escape, `"\ud800"`, which serde_json
    // skips but will not decode, is refused only where the mapping reads it.)
    let value: Result<Value, _> = serde_json::from_str(answer);
    let syntax = serde_json::from_str::<serde::de::IgnoredAny>(answer);
    if value.is_ok() {
        assert!(read.is_ok(), "valid JSON refused: {read:?}");
    }
    if syntax.is_err() {
        assert!(read.is_err(), "not JSON, yet read: {read:?}");
    }
    assert_eq!(read.is_ok(), probed.is_ok());
    let (Ok(read), Ok(probed), Ok(value)) = (read, probed, value) else {
        return;
    };
    assert_eq!(read.matches, probed.matches, "probe changed the matches");
    assert_eq!(read.pages, probed.pages, "probe changed the pages");
    assert!(read.hits.is_empty(), "hits kept without probe");

    let mapping = reader.mapping();
    let found = value.pointer(mapping.hits.as_str());
    match (&read.matches, found) {
        (Ok(matches), Some(Value::Array(hits))) => {
            assert_eq!(matches.len(), hits.len(), "a match per hit");
            assert!(hits.iter().all(Value::is_object));
            assert_eq!(read.pages.hits, hits.len());
            let without = matches.iter().filter(|m| m.pages.is_none()).count();
            assert_eq!(read.pages.without_page, without);
            assert_eq!(probed.hits.len(), hits.len(), "a probe keeps every hit");
            for (i, (hit, m)) in probed.hits.iter().zip(matches).enumerate() {
                assert_eq!(hit.rank, i + 1);
                assert_eq!(&hit.read, m);
            }
            if mapping.page_end.is_none() {
                for (hit, m) in hits.iter().zip(matches) {
                    let at = hit.pointer(mapping.page_start.as_str());
                    if let Some(page) = expected_page(at, mapping.numbering, labels) {
                        assert_eq!(
                            m.pages.map(|p| p.start().get()),
                            page,
                            "page_start {} finds {at:?} in {hit}",
                            mapping.page_start.as_str()
                        );
                    }
                }
            }
            let _ = connector::probe_text(reader, &probed);
            if without == matches.len() && !matches.is_empty() {
                assert!(!reader.no_page_reason(&read.pages).is_empty());
            }
        }
        (Err(ResponseProblem::HitsMissing { .. }), None) => {}
        (Err(ResponseProblem::HitsNotArray { .. }), Some(v)) => {
            assert!(!v.is_array(), "an array refused as not an array");
        }
        (Err(ResponseProblem::MatchNotObject { rank, .. }), Some(Value::Array(hits))) => {
            let first = hits.iter().position(|h| !h.is_object()).map(|i| i + 1);
            assert_eq!(Some(*rank), first, "the first hit that is not an object");
        }
        (got, expected) => panic!(
            "the hits pointer {:?} reads {got:?} where serde_json finds {expected:?}",
            mapping.hits.as_str()
        ),
    }
    if let Err(problem) = &read.matches {
        assert!(!problem.to_string().is_empty());
    }
}

/// Label ranges from bytes, 6 a range: start (0..64), style (or none), first (any u32).
fn ranges(bytes: &[u8]) -> Vec<LabelRange> {
    let styles = [
        None,
        Some(LabelStyle::Decimal),
        Some(LabelStyle::UpperRoman),
        Some(LabelStyle::LowerRoman),
        Some(LabelStyle::UpperLetters),
        Some(LabelStyle::LowerLetters),
    ];
    bytes
        .chunks_exact(6)
        .take(8)
        .map(|c| LabelRange {
            start: u32::from(c[0] % 64),
            style: styles[usize::from(c[1]) % styles.len()],
            prefix: if c[1] & 0x80 != 0 {
                "A-".into()
            } else {
                String::new()
            },
            first: u32::from_le_bytes([c[2], c[3], c[4], c[5]]),
        })
        .collect()
}

fn check_labels(labels: &PageLabels) {
    for index in 1..=labels.page_count().min(200) {
        let page = Page::new(index as i64).expect("a page number");
        let label = labels.label_of(page).expect("every page has a label");
        let first = labels.page_of(label).expect("a label leads to a page");
        assert!(
            first <= page,
            "label {label:?} of page {index} leads after it"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let mut parts = rest.splitn(3, |&b| b == 0);
    let connector_text = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let answer = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let label_bytes = parts.next().unwrap_or_default();

    let names = Connector::preset_names();
    let connector = Connector::parse(&connector_text)
        .unwrap_or_else(|_| Connector::preset(names[usize::from(choice) % names.len()]).unwrap());
    let labels = (!label_bytes.is_empty()).then(|| {
        let text = String::from_utf8_lossy(label_bytes);
        PageLabels::new(text.lines().take(5000).map(String::from).collect())
    });
    if let Some(l) = &labels {
        check_labels(l);
    }
    let table = PageLabels::from_ranges(ranges(label_bytes), u32::from(choice));
    assert_eq!(table.page_count(), usize::from(choice));
    check_labels(&table);

    match Reader::new(&connector, labels.clone()) {
        Ok(reader) => check_answer(&reader, labels.as_ref(), &answer),
        Err(why) => {
            assert!(labels.is_none() && connector.response.numbering == Numbering::Label);
            assert!(!why.to_string().is_empty());
        }
    }
});
