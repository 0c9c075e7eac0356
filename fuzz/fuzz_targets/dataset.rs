//! `Dataset::parse` on arbitrary text: never panics; an `Ok` dataset satisfies contract §1 and
//! survives `to_value` → `from_value` (and its JSON text → `parse`) unchanged; an `Err` holds
//! at least one error, and every error renders.
#![no_main]

use std::collections::HashSet;

use figeval::{Dataset, Page};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Dataset::parse(text) {
        Ok(d) => {
            assert!(!d.corpus_id.trim().is_empty(), "empty corpus_id accepted");
            assert!(!d.items.is_empty(), "a dataset without items accepted");
            let mut questions = HashSet::new();
            for it in &d.items {
                assert!(!it.question.trim().is_empty(), "blank question accepted");
                assert!(
                    questions.insert(it.question.as_str()),
                    "duplicate question accepted: {:?}",
                    it.question
                );
                assert!(!it.expected_pages.is_empty(), "no expected page accepted");
                for p in &it.expected_pages {
                    assert!((1..=Page::MAX).contains(&p.get()), "page {p} accepted");
                }
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
