//! Which items the report's list shows, and in what order: by group, by hit or miss on a
//! metric, and by text; in dataset order or by the rank of the first hit.

use figeval::{Group, ItemRecord, Metric};

use crate::format;

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

/// The order of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// The dataset's order.
    #[default]
    Dataset,
    /// By the rank of the first match on an expected page, rank 1 first; items with no such
    /// match last.
    BestFirst,
    /// Items with no match on an expected page first, then by that rank, the deepest first.
    WorstFirst,
}

impl Order {
    /// Every order, in menu order.
    pub const ALL: [Order; 3] = [Order::Dataset, Order::BestFirst, Order::WorstFirst];

    /// The value in the menu.
    pub fn name(self) -> &'static str {
        match self {
            Order::Dataset => "dataset",
            Order::BestFirst => "best",
            Order::WorstFirst => "worst",
        }
    }

    /// What the menu says.
    pub fn label(self) -> &'static str {
        match self {
            Order::Dataset => "dataset order",
            Order::BestFirst => "first hit rank, best first",
            Order::WorstFirst => "first hit rank, misses first",
        }
    }

    /// The order with this menu value.
    pub fn from_name(name: &str) -> Order {
        Order::ALL
            .into_iter()
            .find(|o| o.name() == name)
            .unwrap_or_default()
    }
}

/// The list's filter and order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// Only this group, when set.
    pub group: Option<Group>,
    /// The metric hit and miss are read on (page_hit_at_3, the headline, at first).
    pub metric: Metric,
    /// Hits, misses or both on `metric`.
    pub outcome: Outcome,
    /// Case-insensitive text to find in the question, the figure reference or a tag.
    pub text: String,
    /// The order of what is shown.
    pub order: Order,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            group: None,
            metric: Metric::PageHitAt3,
            outcome: Outcome::All,
            text: String::new(),
            order: Order::Dataset,
        }
    }
}

impl Filter {
    /// The text to find, trimmed and lowercased (once per filtering, not once per record).
    fn needle(&self) -> String {
        lowercase(self.text.trim())
    }

    /// Whether the filter shows `record`, `needle` being [`Filter::needle`].
    fn shows(&self, record: &ItemRecord, needle: &str) -> bool {
        if self.group.is_some_and(|g| g != record.group) {
            return false;
        }
        let hit = record.hit(self.metric);
        match self.outcome {
            Outcome::Hits if !hit => return false,
            Outcome::Misses if hit => return false,
            _ => {}
        }
        needle.is_empty()
            || contains_lowercase(&record.question, needle)
            || contains_lowercase(&record.figure_ref, needle)
            || record.tags.iter().any(|t| contains_lowercase(t, needle))
    }

    /// The indices of the records the filter shows, in its order (equal ranks in dataset
    /// order).
    pub fn apply(&self, records: &[ItemRecord]) -> Vec<usize> {
        let needle = self.needle();
        let shown: Vec<usize> = (0..records.len())
            .filter(|&i| self.shows(&records[i], &needle))
            .collect();
        // No hit sorts after every rank.
        let rank = |i: usize| records[shown[i]].first_hit_rank.unwrap_or(u32::MAX);
        let order = match self.order {
            Order::Dataset => return shown,
            Order::BestFirst => {
                figeval::stats::stable_order(shown.len(), &|a, b| rank(a) < rank(b))
            }
            Order::WorstFirst => {
                figeval::stats::stable_order(shown.len(), &|a, b| rank(a) > rank(b))
            }
        };
        order.into_iter().map(|i| shown[i]).collect()
    }
}

/// Whether `haystack`, lowercased, contains `needle` (already lowercase). ASCII text, the
/// common case, is searched without allocating.
fn contains_lowercase(haystack: &str, needle: &str) -> bool {
    if haystack.is_ascii() && needle.is_ascii() {
        let (h, n) = (haystack.as_bytes(), needle.as_bytes());
        n.is_empty()
            || (n.len() <= h.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n)))
    } else {
        lowercase(haystack).contains(needle)
    }
}

/// `text` lowercased. ASCII text is lowered here; other text by the browser's
/// `String.prototype.toLowerCase` in the page, so the WebAssembly carries no Unicode case
/// tables (8,049 B of the main bundle, gzip -9, measured), and by `str::to_lowercase` in
/// native builds (the unit tests). Both follow Unicode's default case mapping.
fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    #[cfg(target_arch = "wasm32")]
    return String::from(js_sys::JsString::from(text).to_lower_case());
    #[cfg(not(target_arch = "wasm32"))]
    return text.to_lowercase();
}

/// Rows per page of the items list: a 10,000-item report renders a page, not every row.
pub const PAGE_SIZE: usize = 50;

/// One page of the filtered items: rows `start..end` of the `matching` ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListPage {
    /// The page, from 0 (clamped to the last one).
    pub page: usize,
    /// Pages in all (at least 1).
    pub pages: usize,
    /// The first row shown (an index into the matching rows).
    pub start: usize,
    /// One past the last row shown.
    pub end: usize,
    /// Rows that match the filter.
    pub matching: usize,
}

impl ListPage {
    /// Page `page` (clamped) of `matching` rows, `size` a page.
    pub fn new(matching: usize, page: usize, size: usize) -> ListPage {
        let size = size.max(1);
        let pages = matching.div_ceil(size).max(1);
        let page = page.min(pages - 1);
        let start = (page * size).min(matching);
        let end = (start + size).min(matching);
        ListPage {
            page,
            pages,
            start,
            end,
            matching,
        }
    }

    /// Whether there is a page before this one.
    pub fn has_previous(&self) -> bool {
        self.page > 0
    }

    /// Whether there is a page after this one.
    pub fn has_next(&self) -> bool {
        self.page + 1 < self.pages
    }

    /// What the list says: `showing 1–100 of 10,000`, or of how many match when filtered.
    pub fn label(&self, total: usize) -> String {
        if self.matching == 0 {
            return format!("showing 0 of {}", format::count(total));
        }
        let range = format!(
            "showing {}–{} of {}",
            format::count(self.start + 1),
            format::count(self.end),
            format::count(self.matching)
        );
        if self.matching == total {
            range
        } else {
            format!("{range} matching ({} in all)", format::count(total))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::tests::{body, dataset, score};

    fn records() -> Vec<ItemRecord> {
        let d = dataset();
        let text: String = d
            .items
            .iter()
            .map(|it| body(&it.question, &[(4, 4), (2, 2)]).to_string() + "\n")
            .collect();
        score(&d, &text).0.per_item
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
    fn hit_and_miss_follow_the_metric_chosen() {
        let rs = records();
        // Page 4 at rank 1 for the items that hit: a text chunk, so no figure chunk hit.
        let f = Filter {
            metric: Metric::FigureChunkAt3,
            outcome: Outcome::Misses,
            ..Filter::default()
        };
        let misses: Vec<usize> = (0..rs.len())
            .filter(|&i| !rs[i].hit(Metric::FigureChunkAt3))
            .collect();
        assert_eq!(f.apply(&rs), misses);
        assert_ne!(
            misses,
            Filter {
                outcome: Outcome::Misses,
                ..Filter::default()
            }
            .apply(&rs)
        );
    }

    #[test]
    fn the_list_sorts_by_first_hit_rank_both_ways() {
        let mut rs = records();
        for (r, rank) in rs.iter_mut().zip([Some(3), None, Some(1)]) {
            r.first_hit_rank = rank;
        }
        rs.push(rs[0].clone());
        let best = Filter {
            order: Order::BestFirst,
            ..Filter::default()
        };
        assert_eq!(best.apply(&rs), vec![2, 0, 3, 1]);
        let worst = Filter {
            order: Order::WorstFirst,
            ..Filter::default()
        };
        assert_eq!(worst.apply(&rs), vec![1, 0, 3, 2]);
        // Sorting keeps the filter.
        let hits = Filter {
            outcome: Outcome::Hits,
            ..best
        };
        assert!(!hits.apply(&rs).contains(&1));
        assert_eq!(Order::from_name("worst"), Order::WorstFirst);
        assert_eq!(Order::from_name("?"), Order::Dataset);
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
    fn text_search_ignores_case_in_ascii_and_beyond() {
        assert!(contains_lowercase("Figure 2", "figure 2"));
        assert!(contains_lowercase("FIGURE", "gur"));
        assert!(!contains_lowercase("Fig", "figure"));
        assert!(contains_lowercase("STRAßE", "straße"));
        assert!(contains_lowercase("ÉTÉ", "été"));
        assert!(contains_lowercase("anything", ""));
    }

    #[test]
    fn pages_cut_the_matching_rows_and_clamp() {
        let p = ListPage::new(10_000, 0, 100);
        assert_eq!((p.start, p.end, p.pages), (0, 100, 100));
        assert!(!p.has_previous() && p.has_next());
        assert_eq!(p.label(10_000), "showing 1–100 of 10,000");
        let p = ListPage::new(10_000, 99, 100);
        assert_eq!((p.start, p.end), (9_900, 10_000));
        assert!(p.has_previous() && !p.has_next());
        let p = ListPage::new(250, 7, 100);
        assert_eq!(
            (p.page, p.start, p.end),
            (2, 200, 250),
            "clamped to the last page"
        );
        assert_eq!(
            p.label(10_000),
            "showing 201–250 of 250 matching (10,000 in all)"
        );
        let p = ListPage::new(0, 3, 100);
        assert_eq!((p.page, p.pages, p.start, p.end), (0, 1, 0, 0));
        assert!(!p.has_previous() && !p.has_next());
        assert_eq!(p.label(33), "showing 0 of 33");
        assert_eq!(ListPage::new(33, 0, 100).label(33), "showing 1–33 of 33");
    }

    #[test]
    fn outcome_names_round_trip() {
        for o in Outcome::ALL {
            assert_eq!(Outcome::from_name(o.name()), o);
        }
        assert_eq!(Outcome::from_name("bogus"), Outcome::All);
    }
}
