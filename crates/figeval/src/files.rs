//! Corpora of several files (contract §1.5): whether a match's file and pages cover an item's
//! location. The locations themselves are read and checked in `crate::dataset::locations`.

pub use crate::dataset::locations::same_file;
use crate::dataset::{ExpectedLocation, Item};
use crate::response::{Match, PageSpan};

impl ExpectedLocation {
    /// Whether a match cites a page of `start..=end`, whatever its file.
    pub(crate) fn meets(&self, pages: Option<PageSpan>) -> bool {
        pages.is_some_and(|s| s.start() <= self.end && self.start <= s.end())
    }

    /// Whether the match covers this location: its file is this path and it cites a page of
    /// `start..=end`.
    pub(crate) fn covered_by(&self, m: &Match) -> bool {
        self.meets(m.pages)
            && m.file_path
                .as_deref()
                .is_some_and(|f| same_file(f, &self.path))
    }
}

/// Whether a match cites an expected page of another file than the one it is in: "right page,
/// wrong file". `false` for a match that covers a location.
pub fn wrong_file(item: &Item, m: &Match) -> bool {
    let locs = &item.expected_locations;
    locs.iter().any(|l| l.meets(m.pages)) && !locs.iter().any(|l| l.covered_by(m))
}

#[cfg(test)]
mod scoring {
    use crate::dataset::Dataset;
    use crate::response::Response;
    use crate::score::{score_item, Ranking, ScoreConfig};

    fn item() -> crate::Item {
        let text = r#"{"corpus_id": "c", "items": [{"question": "q?", "figure_ref": "F",
            "kind": "locate", "expected_locations": [
                {"path": "sheets/A-101.pdf", "unit": "page", "start": 3, "end": 3},
                {"path": "A-102.pdf", "unit": "page", "start": 7, "end": 8}]}]}"#;
        Dataset::parse(text).unwrap().items.remove(0)
    }

    fn matches(json: &str) -> Vec<crate::Match> {
        Response::parse(json).unwrap().matches.unwrap()
    }

    fn hit(file: &str, page: u32) -> String {
        format!(
            r#"{{"chunk_id": "{file}:{page}", "file_path": "{file}", "provenance": {{"page_start": {page}, "page_end": {page}}}}}"#
        )
    }

    #[test]
    fn a_match_on_an_expected_page_of_another_file_is_a_miss_that_says_so() {
        let ms = matches(&format!(
            r#"{{"matches": [{}, {}, {}, {}]}}"#,
            hit("corpus/A-102.pdf", 3),
            hit("corpus/notA-101.pdf", 3),
            hit("x/A-101.pdf", 3),
            hit("corpus/sheets/A-101.pdf", 3)
        ));
        let r = score_item(&item(), &ms, ScoreConfig::default());
        assert!(!r.page_hit_at_3 && r.page_hit_at_5);
        assert_eq!(r.first_hit_rank, Some(4));
        let wrong: Vec<bool> = r.top.iter().map(|t| t.wrong_file).collect();
        assert_eq!(wrong, [true, true, true, false]);
        assert!(r.top[3].on_expected_page);
        assert_eq!(r.top[0].file_path.as_deref(), Some("corpus/A-102.pdf"));
        assert_eq!(r.expected_page_ranks, vec![4, 0], "one rank per location");
        assert_eq!(r.ranking(Ranking::RecallAt5), Some(0.5));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["top"][0]["wrong_file"], true);
        assert!(json["top"][3].get("wrong_file").is_none());
        assert_eq!(json["expected_locations"][1]["path"], "A-102.pdf");
        assert_eq!(json["expected_pages"], serde_json::json!([]));
    }

    #[test]
    fn a_match_meets_a_location_anywhere_in_its_page_range() {
        let ms = matches(&format!(
            r#"{{"matches": [{}, {}]}}"#,
            hit("A-102.pdf", 8),
            hit("A-101.pdf", 3)
        ));
        let r = score_item(&item(), &ms, ScoreConfig::default());
        assert_eq!(r.expected_page_ranks, vec![2, 1]);
        assert!(r.page_hit_at_3 && r.top.iter().all(|t| !t.wrong_file));
        assert_eq!(r.ranking(Ranking::RecallAt5), Some(1.0));
    }

    #[test]
    fn a_single_file_item_ignores_file_paths_and_writes_none() {
        let text = r#"{"corpus_id": "c", "items": [{"question": "q?", "figure_ref": "F",
            "kind": "locate", "expected_pages": [3]}]}"#;
        let it = Dataset::parse(text).unwrap().items.remove(0);
        let ms = matches(&format!(r#"{{"matches": [{}]}}"#, hit("other.pdf", 3)));
        let r = score_item(&it, &ms, ScoreConfig::default());
        assert!(r.page_hit_at_3 && !r.top[0].wrong_file && r.top[0].file_path.is_none());
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            !json.contains("file") && !json.contains("expected_locations"),
            "{json}"
        );
    }
}
