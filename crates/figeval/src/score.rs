//! Scoring one item against the matches a deployment returned (contract §4).

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::dataset::{Group, Item, Kind};
use crate::describe;
use crate::response::Match;

/// How many characters of a figure summary the report keeps.
pub const SUMMARY_CHARS: usize = 200;

/// The four per-item hit metrics. A metric table is a loop over [`Metric::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    /// A top-3 match covers an expected page. The headline number.
    PageHitAt3,
    /// A top-5 match covers an expected page.
    PageHitAt5,
    /// A top-3 match of at most `max_precise_span_pages` pages covers an expected page.
    ///
    /// On a scanned report, pages that are wholly figure carry almost no text and the chunker
    /// merges across them, so one chunk can span a dozen pages and "cover" every figure page by
    /// accident. This is the page hit with such blobs left out: the honest version.
    PrecisePageHitAt3,
    /// A top-3 figure chunk covers an expected page: the proof that figure chunks did the work.
    FigureChunkAt3,
}

impl Metric {
    /// Every metric, in report order.
    pub const ALL: [Metric; 4] = [
        Metric::PageHitAt3,
        Metric::PageHitAt5,
        Metric::PrecisePageHitAt3,
        Metric::FigureChunkAt3,
    ];

    /// The metric's key in reports.
    pub fn name(self) -> &'static str {
        match self {
            Metric::PageHitAt3 => "page_hit_at_3",
            Metric::PageHitAt5 => "page_hit_at_5",
            Metric::PrecisePageHitAt3 => "precise_page_hit_at_3",
            Metric::FigureChunkAt3 => "figure_chunk_at_3",
        }
    }

    /// The key of the metric's hit count in summaries.
    pub(crate) fn hits_name(self) -> &'static str {
        match self {
            Metric::PageHitAt3 => "page_hit_at_3_hits",
            Metric::PageHitAt5 => "page_hit_at_5_hits",
            Metric::PrecisePageHitAt3 => "precise_page_hit_at_3_hits",
            Metric::FigureChunkAt3 => "figure_chunk_at_3_hits",
        }
    }

    /// The key of the metric's 95% interval in summaries.
    pub fn ci_name(self) -> &'static str {
        match self {
            Metric::PageHitAt3 => "page_hit_at_3_ci",
            Metric::PageHitAt5 => "page_hit_at_5_ci",
            Metric::PrecisePageHitAt3 => "precise_page_hit_at_3_ci",
            Metric::FigureChunkAt3 => "figure_chunk_at_3_ci",
        }
    }

    /// The metric with this report key.
    pub fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the four hit metrics ([`Metric::ALL`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMetric {
    /// The name given.
    pub name: String,
}

impl fmt::Display for UnknownMetric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Metric::ALL.iter().map(|m| m.name()).collect();
        write!(
            f,
            "{:?} is not a metric; the metrics are {}",
            self.name,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownMetric {}

impl FromStr for Metric {
    type Err = UnknownMetric;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Metric::from_name(s).ok_or_else(|| UnknownMetric {
            name: s.to_string(),
        })
    }
}

/// A metric serializes as its report key.
impl Serialize for Metric {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Metric {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// The four ranking metrics of an item (contract §4.1): nDCG and recall at 5 and at 10 matches.
///
/// Unlike the hit metrics they are fractions per item, computed from the rank at which a match
/// first covers each expected page ([`ItemRecord::expected_page_ranks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ranking {
    /// nDCG over the first 5 matches.
    NdcgAt5,
    /// nDCG over the first 10 matches.
    NdcgAt10,
    /// The share of the expected pages covered by the first 5 matches.
    RecallAt5,
    /// The share of the expected pages covered by the first 10 matches.
    RecallAt10,
}

/// `1 / log2(r + 1)` for the ranks `r` = 1 ..= 10, as the doubles nearest the exact values
/// (written out so that the CLI and the browser use the same bits: `log2` is not correctly
/// rounded on every platform).
const DISCOUNT: [f64; 10] = [
    1.0,
    0.6309297535714574,
    0.5,
    0.43067655807339306,
    0.3868528072345416,
    0.3562071871080222,
    0.3333333333333333,
    0.3154648767857287,
    std::f64::consts::LOG10_2, // 1 / log2(10)
    0.2890648263178879,
];

impl Ranking {
    /// Every ranking metric, in report order.
    pub const ALL: [Ranking; 4] = [
        Ranking::NdcgAt5,
        Ranking::NdcgAt10,
        Ranking::RecallAt5,
        Ranking::RecallAt10,
    ];

    /// The metric's key in reports.
    pub fn name(self) -> &'static str {
        ["ndcg_at_5", "ndcg_at_10", "recall_at_5", "recall_at_10"][self as usize]
    }

    /// The key of the metric's 95% interval in summaries.
    pub fn ci_name(self) -> &'static str {
        [
            "ndcg_at_5_ci",
            "ndcg_at_10_ci",
            "recall_at_5_ci",
            "recall_at_10_ci",
        ][self as usize]
    }

    /// How many matches the metric looks at: 5 or 10.
    pub fn depth(self) -> u32 {
        if matches!(self, Ranking::NdcgAt5 | Ranking::RecallAt5) {
            5
        } else {
            10
        }
    }
}

/// The four ranking metrics of one item, in [`Ranking::ALL`] order, from the ranks at which
/// its expected pages are first covered (one per distinct expected page, 0 for a page no match
/// covers).
///
/// Recall at k is the share of the pages covered within k. nDCG at k gives each page covered
/// within k the gain 1 discounted by `1 / log2(rank + 1)`, over the ideal: the expected pages
/// at ranks 1 ..= min(n, k). Pages covered by one match share its rank, so the sum can pass the
/// ideal; nDCG is capped at 1. Without expected pages every metric is 0.
pub fn ranking_values(ranks: &[u32]) -> [f64; 4] {
    let mut out = [0.0; 4];
    if ranks.is_empty() {
        return out;
    }
    for (j, k) in [5, 10].into_iter().enumerate() {
        let (mut gain, mut ideal, mut covered) = (0.0f64, 0.0f64, 0u32);
        for i in 0..ranks.len() {
            let r = ranks[i] as usize;
            if 1 <= r && r <= k {
                gain += DISCOUNT[r - 1];
                covered += 1;
            }
            if i < k {
                ideal += DISCOUNT[i];
            }
        }
        out[j] = (gain / ideal).min(1.0);
        out[2 + j] = f64::from(covered) / ranks.len() as f64;
    }
    out
}

/// A ranking metric serializes as its report key.
impl Serialize for Ranking {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One value per metric, indexed by [`Metric`].
///
/// The table has a cell for every metric by construction (one field each, matched
/// exhaustively), so indexing cannot fail, and adding a metric is a compile error here until
/// its cell exists. It iterates, and serializes as a sequence, in [`Metric::ALL`] order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PerMetric<T> {
    page_hit_at_3: T,
    page_hit_at_5: T,
    precise_page_hit_at_3: T,
    figure_chunk_at_3: T,
}

impl<T> PerMetric<T> {
    /// The table whose cell for `m` is `f(m)`; `f` is called in [`Metric::ALL`] order.
    pub(crate) fn from_fn(mut f: impl FnMut(Metric) -> T) -> PerMetric<T> {
        PerMetric {
            page_hit_at_3: f(Metric::PageHitAt3),
            page_hit_at_5: f(Metric::PageHitAt5),
            precise_page_hit_at_3: f(Metric::PrecisePageHitAt3),
            figure_chunk_at_3: f(Metric::FigureChunkAt3),
        }
    }

    /// Every metric with its cell, in [`Metric::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Metric, &T)> + '_ {
        Metric::ALL.into_iter().map(move |m| (m, &self[m]))
    }

    /// The cells, in [`Metric::ALL`] order.
    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        Metric::ALL.into_iter().map(move |m| &self[m])
    }

    /// A table of `f(metric, cell)`.
    pub fn map<U>(&self, mut f: impl FnMut(Metric, &T) -> U) -> PerMetric<U> {
        PerMetric::from_fn(|m| f(m, &self[m]))
    }
}

impl<T> Index<Metric> for PerMetric<T> {
    type Output = T;
    fn index(&self, m: Metric) -> &T {
        match m {
            Metric::PageHitAt3 => &self.page_hit_at_3,
            Metric::PageHitAt5 => &self.page_hit_at_5,
            Metric::PrecisePageHitAt3 => &self.precise_page_hit_at_3,
            Metric::FigureChunkAt3 => &self.figure_chunk_at_3,
        }
    }
}

impl<T> IndexMut<Metric> for PerMetric<T> {
    fn index_mut(&mut self, m: Metric) -> &mut T {
        match m {
            Metric::PageHitAt3 => &mut self.page_hit_at_3,
            Metric::PageHitAt5 => &mut self.page_hit_at_5,
            Metric::PrecisePageHitAt3 => &mut self.precise_page_hit_at_3,
            Metric::FigureChunkAt3 => &mut self.figure_chunk_at_3,
        }
    }
}

/// A table serializes as the sequence of its cells in [`Metric::ALL`] order.
impl<T: Serialize> Serialize for PerMetric<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.values())
    }
}

/// Scoring settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreConfig {
    /// The widest span, in pages, that still counts as a precise hit.
    pub max_precise_span_pages: u32,
}

impl ScoreConfig {
    /// Whether a match spanning `span_pages` pages is narrow enough for a precise hit
    /// (the limit is inclusive).
    pub fn is_precise(self, span_pages: u32) -> bool {
        span_pages <= self.max_precise_span_pages
    }
}

impl Default for ScoreConfig {
    fn default() -> Self {
        ScoreConfig {
            max_precise_span_pages: 3,
        }
    }
}

/// One row of an item's ranked window (a match of the top 5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopRow {
    /// 1-based rank.
    pub rank: u32,
    /// The match's chunk id. Boxed, as `file_path`: a report of 100,000 items holds half a
    /// million rows, and a `Box<str>` is 8 bytes smaller than a `String`.
    pub chunk_id: Box<str>,
    /// First cited page, `null` when the match cites no page.
    pub page_start: Option<u32>,
    /// Last cited page, `null` when the match cites no page.
    pub page_end: Option<u32>,
    /// Pages covered, `null` when the match cites no page.
    pub span_pages: Option<u32>,
    /// `metadata.chunk_kind`, when a string; `text` and `figure`, nearly every row's, are not
    /// allocated once per row ([`ChunkKind`]).
    pub chunk_kind: Option<ChunkKind>,
    /// Whether the match covers an expected page.
    pub on_expected_page: bool,
    /// The match's file, for an item with `expected_locations` only (contract §1.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_path: Option<Box<str>>,
    /// "Right page, wrong file": the match cites an expected page of a file it is not in
    /// (only an item with `expected_locations` has one; written only when true).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub wrong_file: bool,
}

/// A ranked row's chunk kind: natively, the two every deployment of the contract sends are kept
/// as static text, any other as its own (the command line's memory at 100,000 items,
/// BENCHMARKS.md). In WebAssembly it is a `String`: the page's bundle has a budget, and the
/// `Cow`'s code costs 167 B of it.
#[cfg(not(target_arch = "wasm32"))]
pub type ChunkKind = std::borrow::Cow<'static, str>;
/// A ranked row's chunk kind (see the native build's).
#[cfg(target_arch = "wasm32")]
pub type ChunkKind = String;

/// `kind` as a [`ChunkKind`].
#[cfg(not(target_arch = "wasm32"))]
fn chunk_kind(kind: &str) -> ChunkKind {
    match kind {
        "text" => ChunkKind::Borrowed("text"),
        "figure" => ChunkKind::Borrowed("figure"),
        other => ChunkKind::Owned(other.to_string()),
    }
}

/// `kind` as a [`ChunkKind`].
#[cfg(target_arch = "wasm32")]
fn chunk_kind(kind: &str) -> ChunkKind {
    kind.to_string()
}

/// The per-item record of a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemRecord {
    /// The item's question.
    pub question: String,
    /// The figure or section the question is about.
    pub figure_ref: String,
    /// The item's kind.
    pub kind: Kind,
    /// The item's reporting group.
    pub group: Group,
    /// The item's tags.
    pub tags: Vec<String>,
    /// The pages that carry the answer; empty for an item with `expected_locations`.
    pub expected_pages: Vec<u32>,
    /// The pages of several files that carry the answer (contract §1.5); empty, and not
    /// written, for an item of a single-file dataset.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected_locations: Vec<crate::dataset::ExpectedLocation>,
    /// How many matches the deployment returned.
    pub matches_returned: u32,
    /// See [`Metric::PageHitAt3`].
    pub page_hit_at_3: bool,
    /// See [`Metric::PageHitAt5`].
    pub page_hit_at_5: bool,
    /// See [`Metric::PrecisePageHitAt3`].
    pub precise_page_hit_at_3: bool,
    /// See [`Metric::FigureChunkAt3`].
    pub figure_chunk_at_3: bool,
    /// Rank of the first match, among all returned, covering an expected page.
    pub first_hit_rank: Option<u32>,
    /// Per distinct expected page, in `expected_pages` order (a page listed twice counts once):
    /// the rank of the first match, among all returned, covering it; 0 when none does. The
    /// ranking metrics ([`Ranking`]) are computed from it. Empty (and not written) in a record
    /// from before them: an item always has an expected page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected_page_ranks: Vec<u32>,
    /// The ranked window: one row per match of the top 5.
    pub top: Vec<TopRow>,
    /// Non-empty summaries of the top-3 matches, each cut to 200 characters. A deployment
    /// that describes every figure chunk sends `""` for one it has no summary of; that is
    /// no summary, as in the seed's scorer.
    pub figure_summaries_at_3: Vec<String>,
}

impl ItemRecord {
    /// Whether the item hit on `metric`.
    pub fn hit(&self, metric: Metric) -> bool {
        match metric {
            Metric::PageHitAt3 => self.page_hit_at_3,
            Metric::PageHitAt5 => self.page_hit_at_5,
            Metric::PrecisePageHitAt3 => self.precise_page_hit_at_3,
            Metric::FigureChunkAt3 => self.figure_chunk_at_3,
        }
    }

    /// The item's four ranking metrics ([`ranking_values`]); `None` for a record without
    /// [`ItemRecord::expected_page_ranks`].
    pub fn rankings(&self) -> Option<[f64; 4]> {
        let ranks = &self.expected_page_ranks;
        (!ranks.is_empty()).then(|| ranking_values(ranks))
    }

    /// The item's value of one ranking metric; `None` as for [`ItemRecord::rankings`].
    pub fn ranking(&self, metric: Ranking) -> Option<f64> {
        self.rankings().map(|v| v[metric as usize])
    }

    /// The reciprocal rank of the first hit, 0 when none.
    pub(crate) fn reciprocal_rank(&self) -> f64 {
        self.first_hit_rank.map_or(0.0, |r| 1.0 / f64::from(r))
    }
}

/// Scores one item against the matches returned for it, in the deployment's order.
pub fn score_item(item: &Item, matches: &[Match], config: ScoreConfig) -> ItemRecord {
    let files = !item.expected_locations.is_empty();
    let on_expected = |m: &Match| {
        if files {
            return item.expected_locations.iter().any(|l| l.covered_by(m));
        }
        m.pages
            .is_some_and(|s| item.expected_pages.iter().any(|&p| s.covers(p)))
    };
    let hit_within = |n: usize, extra: &dyn Fn(&Match) -> bool| {
        matches.iter().take(n).any(|m| on_expected(m) && extra(m))
    };
    let rank_of = |i: usize| u32::try_from(i + 1).unwrap_or(u32::MAX);
    let first_hit_rank = matches.iter().position(on_expected).map(rank_of);
    // Per distinct expected page (a page listed twice is counted at its first listing), the
    // rank of the first match covering it, 0 for none.
    let mut expected_page_ranks = Vec::new();
    for (i, p) in item.expected_pages.iter().enumerate() {
        if !item.expected_pages[..i].contains(p) {
            let at = matches
                .iter()
                .position(|m| m.pages.is_some_and(|s| s.covers(*p)));
            expected_page_ranks.push(at.map_or(0, rank_of));
        }
    }
    // With several files, each location is ranked once, where a match first covers it.
    for l in &item.expected_locations {
        let at = matches.iter().position(|m| l.covered_by(m));
        expected_page_ranks.push(at.map_or(0, rank_of));
    }
    let top = matches
        .iter()
        .take(5)
        .enumerate()
        .map(|(i, m)| TopRow {
            rank: i as u32 + 1,
            chunk_id: m.chunk_id.as_str().into(),
            page_start: m.pages.map(|s| s.start().get()),
            page_end: m.pages.map(|s| s.end().get()),
            span_pages: m.pages.map(|s| s.span_pages()),
            chunk_kind: m.chunk_kind.as_deref().map(chunk_kind),
            on_expected_page: on_expected(m),
            file_path: m.file_path.as_deref().filter(|_| files).map(Into::into),
            wrong_file: crate::files::wrong_file(item, m),
        })
        .collect();
    let figure_summaries_at_3 = matches
        .iter()
        .take(3)
        .filter_map(|m| m.figure_summary.as_deref())
        .filter(|s| !s.is_empty())
        .map(|s| summary_start(s).to_string())
        .collect();
    ItemRecord {
        question: item.question.clone(),
        figure_ref: item.figure_ref.clone(),
        kind: item.kind,
        group: item.group(),
        tags: item.tags.clone(),
        expected_pages: item.expected_pages.iter().map(|p| p.get()).collect(),
        expected_locations: item.expected_locations.clone(),
        matches_returned: u32::try_from(matches.len()).unwrap_or(u32::MAX),
        page_hit_at_3: hit_within(3, &|_| true),
        page_hit_at_5: hit_within(5, &|_| true),
        precise_page_hit_at_3: hit_within(3, &|m| {
            m.pages.is_some_and(|s| config.is_precise(s.span_pages()))
        }),
        figure_chunk_at_3: hit_within(3, &Match::is_figure),
        first_hit_rank,
        expected_page_ranks,
        top,
        figure_summaries_at_3,
    }
}

/// The first [`SUMMARY_CHARS`] characters of a summary (characters, not bytes).
fn summary_start(s: &str) -> &str {
    describe::first_chars(s, SUMMARY_CHARS)
}

/// The start of a question as messages quote it.
pub fn question_start(question: &str) -> String {
    describe::question(question)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Page;
    use crate::response::PageSpan;

    fn item(pages: &[u32]) -> Item {
        Item {
            question: "Which figure shows the pitch attitude?".into(),
            expected_pages: pages
                .iter()
                .map(|&p| Page::new(p.into()).unwrap())
                .collect(),
            expected_locations: Vec::new(),
            figure_ref: "Figure 5-5".into(),
            kind: Kind::Locate,
            tags: vec!["figure".into()],
        }
    }

    fn text(start: u32, end: u32) -> Match {
        Match {
            chunk_id: format!("t{start}-{end}"),
            pages: PageSpan::new(
                Page::new(start.into()).unwrap(),
                Page::new(end.into()).unwrap(),
            ),
            chunk_kind: Some("text".into()),
            ..Match::default()
        }
    }

    fn figure(page: u32, summary: &str) -> Match {
        Match {
            chunk_kind: Some("figure".into()),
            figure_summary: Some(summary.into()),
            ..text(page, page)
        }
    }

    fn no_page() -> Match {
        Match {
            chunk_id: "np".into(),
            ..Match::default()
        }
    }

    fn score(pages: &[u32], matches: &[Match]) -> ItemRecord {
        score_item(&item(pages), matches, ScoreConfig::default())
    }

    #[test]
    fn a_hit_at_rank_four_counts_at_5_but_not_at_3() {
        let r = score(
            &[72],
            &[text(1, 1), text(2, 2), text(3, 3), text(72, 72), text(5, 5)],
        );
        assert!(!r.page_hit_at_3 && !r.precise_page_hit_at_3 && !r.figure_chunk_at_3);
        assert!(r.page_hit_at_5);
        assert_eq!(r.first_hit_rank, Some(4));
        assert!(r.top[3].on_expected_page && !r.top[2].on_expected_page);
    }

    #[test]
    fn a_hit_at_rank_three_counts_at_3() {
        let r = score(&[72], &[text(1, 1), text(2, 2), text(72, 72)]);
        assert!(r.page_hit_at_3 && r.page_hit_at_5 && r.precise_page_hit_at_3);
        assert_eq!(r.first_hit_rank, Some(3));
    }

    #[test]
    fn a_hit_beyond_rank_five_only_sets_the_first_hit_rank() {
        let mut ms: Vec<Match> = (1..=7).map(|p| text(p, p)).collect();
        ms.push(text(72, 72));
        let r = score(&[72], &ms);
        assert!(!r.page_hit_at_5);
        assert_eq!(r.first_hit_rank, Some(8));
        assert_eq!(r.top.len(), 5);
        assert_eq!(r.matches_returned, 8);
    }

    #[test]
    fn a_figure_chunk_on_the_wrong_page_is_not_a_figure_hit() {
        let r = score(&[72], &[figure(73, "a chart"), text(72, 72)]);
        assert!(r.page_hit_at_3 && !r.figure_chunk_at_3);
        assert_eq!(r.first_hit_rank, Some(2));
        assert_eq!(r.figure_summaries_at_3, vec!["a chart".to_string()]);
    }

    #[test]
    fn a_text_chunk_on_the_right_page_is_a_page_hit_but_not_a_figure_hit() {
        let r = score(&[72], &[text(72, 72)]);
        assert!(r.page_hit_at_3 && r.precise_page_hit_at_3 && !r.figure_chunk_at_3);
    }

    #[test]
    fn a_figure_chunk_on_the_right_page_is_a_figure_hit() {
        let r = score(&[72], &[text(1, 1), figure(72, "pitch")]);
        assert!(r.figure_chunk_at_3 && r.page_hit_at_3);
    }

    #[test]
    fn a_wide_blob_is_a_page_hit_but_not_precise() {
        let r = score(&[72], &[text(65, 80)]);
        assert!(r.page_hit_at_3 && !r.precise_page_hit_at_3);
        assert_eq!(r.top[0].span_pages, Some(16));
    }

    #[test]
    fn the_span_limit_is_inclusive() {
        let r = score(&[72], &[text(70, 72)]);
        assert!(
            r.precise_page_hit_at_3,
            "a 3-page span is precise at the default limit"
        );
        let r = score(&[72], &[text(69, 72)]);
        assert!(!r.precise_page_hit_at_3, "a 4-page span is not");
        let r = score_item(
            &item(&[72]),
            &[text(69, 72)],
            ScoreConfig {
                max_precise_span_pages: 4,
            },
        );
        assert!(r.precise_page_hit_at_3);
    }

    #[test]
    fn any_of_several_expected_pages_counts() {
        let r = score(&[72, 73], &[text(73, 73)]);
        assert!(r.page_hit_at_3);
        let r = score(&[10, 20], &[text(11, 19)]);
        assert!(
            !r.page_hit_at_5,
            "a span between two expected pages covers neither"
        );
    }

    #[test]
    fn an_empty_result_set_misses_everything() {
        let r = score(&[72], &[]);
        assert!(Metric::ALL.iter().all(|&m| !r.hit(m)));
        assert_eq!(
            (r.first_hit_rank, r.matches_returned, r.top.len()),
            (None, 0, 0)
        );
    }

    #[test]
    fn matches_that_cite_no_page_never_hit_and_show_null_pages() {
        let r = score(&[72], &[no_page(), text(72, 72)]);
        assert_eq!(r.first_hit_rank, Some(2));
        let row = &r.top[0];
        assert_eq!(
            (row.page_start, row.page_end, row.span_pages),
            (None, None, None)
        );
        assert!(!row.on_expected_page);
    }

    #[test]
    fn an_empty_summary_is_no_summary_as_in_the_seed_scorer() {
        let r = score(&[72], &[figure(72, ""), figure(3, "a plot"), figure(4, "")]);
        assert_eq!(r.figure_summaries_at_3, vec!["a plot".to_string()]);
        assert!(
            r.figure_chunk_at_3,
            "the chunk still counts as a figure chunk"
        );
    }

    #[test]
    fn summaries_are_cut_to_200_characters_not_bytes() {
        let long: String = "é".repeat(250);
        let r = score(
            &[72],
            &[
                figure(72, &long),
                figure(1, "short"),
                text(2, 2),
                figure(3, "fourth"),
            ],
        );
        assert_eq!(
            r.figure_summaries_at_3.len(),
            2,
            "only the top 3, only those with a summary"
        );
        assert_eq!(r.figure_summaries_at_3[0].chars().count(), 200);
        assert_eq!(r.figure_summaries_at_3[0].len(), 400);
        assert_eq!(r.figure_summaries_at_3[1], "short");
        let cjk: String = "図".repeat(201);
        let r = score(&[72], &[figure(72, &cjk)]);
        assert_eq!(r.figure_summaries_at_3[0], "図".repeat(200));
    }

    fn ranking(pages: &[u32], matches: &[Match]) -> [f64; 4] {
        let r = score(pages, matches);
        Ranking::ALL.map(|m| r.ranking(m).unwrap())
    }

    #[test]
    fn each_expected_page_is_ranked_where_a_match_first_covers_it() {
        let r = score(
            &[72, 40, 72, 9],
            &[no_page(), text(70, 73), text(40, 40), text(72, 72)],
        );
        assert_eq!(
            r.expected_page_ranks,
            vec![2, 3, 0],
            "72 once, at the first match covering it; 9 never covered"
        );
    }

    #[test]
    fn ndcg_and_recall_follow_the_binary_gain_definition() {
        // One expected page at rank 3: DCG 1/log2(4) = 0.5 over an ideal of 1.
        assert_eq!(
            ranking(&[7], &[text(1, 1), text(2, 2), text(7, 7)]),
            [0.5, 0.5, 1.0, 1.0]
        );
        // At rank 7: outside the first 5, inside the first 10 (1/log2(8) = 1/3).
        let mut ms: Vec<Match> = (1..=6).map(|p| text(p, p)).collect();
        ms.push(text(70, 70));
        let [n5, n10, r5, r10] = ranking(&[70], &ms);
        assert_eq!((n5, r5, r10), (0.0, 0.0, 1.0));
        assert!((n10 - 1.0 / 3.0).abs() < 1e-15, "{n10}");
        // Two expected pages, one at rank 1 and one at rank 2: the ideal, 1.
        assert_eq!(ranking(&[3, 4], &[text(3, 3), text(4, 4)]), [1.0; 4]);
        // Two expected pages, only one found at rank 2: (1/log2 3) / (1 + 1/log2 3).
        let [n5, _, r5, _] = ranking(&[3, 4], &[text(1, 1), text(4, 4)]);
        let d2 = 1.0 / 3f64.log2();
        assert!((n5 - d2 / (1.0 + d2)).abs() < 1e-15, "{n5}");
        assert_eq!(r5, 0.5);
    }

    #[test]
    fn a_span_covering_several_expected_pages_counts_each_at_its_rank_capped_at_1() {
        // Both pages at rank 1: DCG 2 against the ideal 1 + 1/log2 3, capped at 1.
        assert_eq!(ranking(&[3, 4], &[text(3, 4)]), [1.0; 4]);
        // Both at rank 2: 2/log2 3 over the same ideal.
        let [n5, ..] = ranking(&[3, 4], &[text(1, 1), text(2, 5)]);
        let d2 = 1.0 / 3f64.log2();
        assert!((n5 - 2.0 * d2 / (1.0 + d2)).abs() < 1e-15, "{n5}");
    }

    #[test]
    fn the_ideal_is_capped_at_the_depth() {
        // Seven expected pages, the first five matches each on one: the ideal at 5 is reached.
        let pages: Vec<u32> = (1..=7).collect();
        let ms: Vec<Match> = (1..=5).map(|p| text(p, p)).collect();
        let [n5, n10, r5, r10] = ranking(&pages, &ms);
        assert_eq!((n5, r5, r10), (1.0, 5.0 / 7.0, 5.0 / 7.0));
        assert!(n10 < 1.0, "{n10}");
    }

    #[test]
    fn the_discounts_are_the_nearest_doubles_to_one_over_log2_of_rank_plus_one() {
        for (i, d) in DISCOUNT.iter().enumerate() {
            let exact = 1.0 / ((i + 2) as f64).log2();
            assert!(
                (d - exact).abs() <= f64::EPSILON,
                "rank {}: {d} {exact}",
                i + 1
            );
        }
        assert_eq!(
            Ranking::ALL.map(Ranking::name),
            ["ndcg_at_5", "ndcg_at_10", "recall_at_5", "recall_at_10"]
        );
        for m in Ranking::ALL {
            assert_eq!(m.ci_name(), format!("{}_ci", m.name()));
            assert!(m.name().ends_with(&m.depth().to_string()));
        }
    }

    #[test]
    fn metric_names_round_trip() {
        for m in Metric::ALL {
            assert_eq!(Metric::from_name(m.name()), Some(m));
            assert_eq!(m.name().parse::<Metric>(), Ok(m));
            assert_eq!(m.hits_name(), format!("{}_hits", m.name()));
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(json, format!("\"{}\"", m.name()));
            assert_eq!(serde_json::from_str::<Metric>(&json).unwrap(), m);
        }
        let e = "page_hit_at_4".parse::<Metric>().unwrap_err();
        assert_eq!(e.name, "page_hit_at_4");
        assert!(
            e.to_string()
                .contains("the metrics are page_hit_at_3, page_hit_at_5"),
            "{e}"
        );
    }

    #[test]
    fn a_per_metric_table_holds_one_cell_per_metric_in_report_order() {
        let mut t = PerMetric::from_fn(|m| m.name().len());
        assert_eq!(t.iter().map(|(m, _)| m).collect::<Vec<_>>(), Metric::ALL);
        for m in Metric::ALL {
            assert_eq!(t[m], m.name().len());
            t[m] += 1;
        }
        for m in Metric::ALL {
            assert_eq!(t[m], m.name().len() + 1, "{m} has a cell of its own");
        }
        assert_eq!(
            serde_json::to_value(t.map(|m, _| m)).unwrap(),
            serde_json::json!(Metric::ALL.map(Metric::name))
        );
    }
}
