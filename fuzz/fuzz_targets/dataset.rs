//! `Dataset::parse` on arbitrary text: never panics; an `Ok` dataset satisfies contract §1 and
//! survives `to_value` → `from_value` (and its JSON text → `parse`) unchanged; an `Err` holds
//! at least one error, and every error renders.
#![no_main]

use std::collections::HashSet;

use figeval::{Dataset, Group, Page};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Dataset::parse(text) {
        Ok(d) => {
            assert!(!d.corpus_id.trim().is_empty(), "empty corpus_id accepted");
            assert!(!d.items.is_empty(), "a dataset without items accepted");
            // The raw items, read here as plain JSON, to check the parsed ones against.
            let raw: Value = serde_json::from_str(text).expect("an accepted dataset is JSON");
            let raw_items = raw["items"]
                .as_array()
                .expect("an accepted dataset has items");
            assert_eq!(raw_items.len(), d.items.len(), "items dropped or added");
            let mut questions = HashSet::new();
            for (it, raw_it) in d.items.iter().zip(raw_items) {
                assert!(!it.question.trim().is_empty(), "blank question accepted");
                assert!(
                    questions.insert(it.question.as_str()),
                    "duplicate question accepted: {:?}",
                    it.question
                );
                assert!(!it.expected_pages.is_empty(), "no expected page accepted");
                let raw_pages: Vec<u64> = raw_it["expected_pages"]
                    .as_array()
                    .expect("accepted expected_pages are an array")
                    .iter()
                    .map(|v| v.as_u64().expect("an accepted page is an integer"))
                    .collect();
                for p in &it.expected_pages {
                    assert!((1..=Page::MAX).contains(&p.get()), "page {p} accepted");
                }
                // `expects` is true exactly on the pages the JSON lists: each listed page and
                // its neighbours are checked against the raw list.
                for &q in &raw_pages {
                    for c in [q.saturating_sub(1), q, q + 1] {
                        if let Some(page) = Page::new(c as i64) {
                            assert_eq!(
                                it.expects(page),
                                raw_pages.contains(&c),
                                "expects({c}) with pages {raw_pages:?}"
                            );
                        }
                    }
                }
                // The group follows from the raw kind and tags: a "prose" tag, else the kind.
                let prose = raw_it["tags"]
                    .as_array()
                    .is_some_and(|t| t.iter().any(|t| t == "prose"));
                let group = match (prose, raw_it["kind"].as_str()) {
                    (true, _) => Group::Prose,
                    (false, Some("locate")) => Group::Locate,
                    (false, Some("content")) => Group::Content,
                    (false, k) => panic!("kind {k:?} accepted"),
                };
                assert_eq!(it.group(), group, "group of {:?}", it.question);
            }
            let counted: usize = d.group_counts().iter().map(|&(_, n)| n).sum();
            assert_eq!(counted, d.items.len(), "group_counts must count every item");

            let value = d.to_value();
            let back = Dataset::from_value(&value)
                .unwrap_or_else(|e| panic!("to_value of a valid dataset is refused: {e}\n{value}"));
            assert_eq!(back, d, "to_value/from_value changed the dataset");
            let again = Dataset::parse(&value.to_string())
                .unwrap_or_else(|e| panic!("the JSON of a valid dataset is refused: {e}"));
            assert_eq!(again, d, "to_value/parse changed the dataset");
        }
        Err(errors) => {
            assert!(!errors.0.is_empty(), "an Err with no error in it");
            for e in &errors.0 {
                // (The field may be empty: an unknown key `""` is reported under its name.)
                assert!(!e.message.is_empty(), "an error without a message: {e:?}");
                let _ = e.to_string();
            }
            let _ = errors.to_string();
        }
    }
});
