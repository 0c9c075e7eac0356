//! Which items the report's list shows: by group, by hit or miss on page_hit_at_3, and by text.

use figeval::{Group, ItemRecord, Metric};

/// Hit, miss, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Outcome {
    /// Every item.
    #[default]
    All,
    /// Items that hit on the headline metric.
    Hits,
    /// Items that missed on the headline metric.
    Misses,
}

impl Outcome {
    /// Every outcome, in menu order.
    pub const ALL: [Outcome; 3] = [Outcome::All, Outcome::Hits, Outcome::Misses];

    /// The value in the menu.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::All => "all",
            Outcome::Hits => "hit",
            Outcome::Misses => "miss",
        }
    }

    /// What the menu says.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::All => "hits and misses",
            Outcome::Hits => "hits only",
            Outcome::Misses => "misses only",
        }
    }

    /// The outcome with this menu value.
    pub fn from_name(name: &str) -> Outcome {
        Outcome::ALL
            .into_iter()
            .find(|o| o.name() == name)
            .unwrap_or_default()
    }
}

/// The list's filter.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Filter {
    /// Only this group, when set.
    pub group: Option<Group>,
    /// Hits, misses or both (on page_hit_at_3, the headline).
    pub outcome: Outcome,
    /// Case-insensitive text to find in the question, the figure reference or a tag.
    pub text: String,
}

impl Filter {
    /// Whether the filter shows `record`.
    pub fn shows(&self, record: &ItemRecord) -> bool {
        if self.group.is_some_and(|g| g != record.group) {
            return false;
        }
        let hit = record.hit(Metric::PageHitAt3);
        match self.outcome {
            Outcome::Hits if !hit => return false,
            Outcome::Misses if hit => return false,
            _ => {}
        }
        let needle = self.text.trim().to_lowercase();
        needle.is_empty()
            || record.question.to_lowercase().contains(&needle)
            || record.figure_ref.to_lowercase().contains(&needle)
            || record
                .tags
                .iter()
                .any(|t| t.to_lowercase().contains(&needle))
    }

    /// The indices of the records the filter shows, in report order.
    pub fn apply(&self, records: &[ItemRecord]) -> Vec<usize> {
        (0..records.len())
            .filter(|&i| self.shows(&records[i]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::tests::{body, dataset};
    use crate::scoring::{score_capture, RunFacts};

    fn records() -> Vec<ItemRecord> {
        let d = dataset();
        let text: String = d
            .items
            .iter()
            .map(|it| body(&it.question, &[(4, 4), (2, 2)]).to_string() + "\n")
            .collect();
        score_capture(&d, &text, false, 3, "t", &RunFacts::default())
            .unwrap()
            .per_item
    }

    #[test]
    fn the_empty_filter_shows_everything_in_order() {
        assert_eq!(Filter::default().apply(&records()), vec![0, 1, 2]);
    }

    #[test]
    fn misses_only_shows_the_items_that_missed_at_3() {
        let f = Filter {
            outcome: Outcome::Misses,
            ..Filter::default()
        };
        assert_eq!(f.apply(&records()), vec![1]);
        let f = Filter {
            outcome: Outcome::Hits,
            ..Filter::default()
        };
        assert_eq!(f.apply(&records()), vec![0, 2]);
    }

    #[test]
    fn group_and_text_narrow_the_list() {
        let f = Filter {
            group: Some(Group::Prose),
            ..Filter::default()
        };
        assert_eq!(f.apply(&records()), vec![2]);
        let f = Filter {
            text: "FIGURE 2".into(),
            ..Filter::default()
        };
        assert_eq!(f.apply(&records()), vec![1]);
        let f = Filter {
            text: "curve".into(),
            outcome: Outcome::Hits,
            ..Filter::default()
        };
        assert!(f.apply(&records()).is_empty());
    }

    #[test]
    fn outcome_names_round_trip() {
        for o in Outcome::ALL {
            assert_eq!(Outcome::from_name(o.name()), o);
        }
        assert_eq!(Outcome::from_name("bogus"), Outcome::All);
    }
}
