//! Before/after comparison of two reports of the same dataset (contract §7).
//!
//! Rates and hit counts are the ones each report states; gained and lost questions come from
//! pairing the two reports' items by question, and the exact two-sided McNemar p-value is
//! computed on (gained, lost). A group's items are taken from the *after* report's grouping.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::dataset::Group;
use crate::decimal::{self, round4};
use crate::report::{Report, Scope, UnknownScope};
use crate::score::{ItemRecord, Metric, PerMetric, Ranking, UnknownMetric};
use crate::stats::{
    min_significant_delta, newcombe_paired, percentile_bootstrap_mean, Interval, PairedCounts,
};
use crate::summary::Summary;

/// The reading guide printed with every comparison.
pub const READING_GUIDE: [&str; 4] = [
    "page_hit_at_3 is the headline: does a top-3 match cite the page the answer is printed on?",
    "precise_page_hit_at_3 is its honest version: the same question with wide blobs (spans over \
     max_precise_span_pages) left out, since a chunk spanning a dozen pages covers figure pages by accident.",
    "figure_chunk_at_3 is the proof that figure chunks moved it: a described figure chunk in the \
     top 3 on an expected page.",
    "If figure_chunk_at_3 is flat while page_hit_at_3 rose, the prose around the figure did the work.",
];

/// The level below which an exact McNemar p calls a change significant (the reading guide's
/// "too small to tell" line and the significance gate, contract §7.2).
pub const ALPHA: f64 = 0.05;

/// How a change's 95% interval (Newcombe's) and its exact McNemar test disagree. The two are
/// different methods and can: the interval of 5 of 5 items flipping excludes 0 while the test's
/// p is 0.0625. The significance gate follows the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Disagreement {
    /// The interval excludes 0, but p is not below [`ALPHA`].
    IntervalExcludesZero,
    /// p is below [`ALPHA`], but the interval includes 0.
    TestSignificant,
}

impl Disagreement {
    /// Whether the interval `delta_ci` and the p-value `p` disagree; `None` when they agree or
    /// there is no interval.
    pub fn of(delta_ci: Option<Interval>, p: f64) -> Option<Disagreement> {
        let excludes_zero = !delta_ci?.contains(0.0);
        match (excludes_zero, p < ALPHA) {
            (true, false) => Some(Disagreement::IntervalExcludesZero),
            (false, true) => Some(Disagreement::TestSignificant),
            _ => None,
        }
    }
}

/// One metric of one scope, before and after.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricDelta {
    /// The metric (serialized as its report key).
    pub metric: Metric,
    /// The before rate.
    pub before: f64,
    /// The before rate's 95% Wilson interval (`null` when the scope had no items before).
    pub before_ci: Option<Interval>,
    /// The after rate.
    pub after: f64,
    /// The after rate's 95% Wilson interval.
    pub after_ci: Option<Interval>,
    /// `after - before`, rounded to 4 places.
    pub delta: f64,
    /// The 95% interval of the paired difference (after − before) over the paired items:
    /// Newcombe's square-and-add (method 10), rounded; `null` without paired items.
    pub delta_ci: Option<Interval>,
    /// Hits before.
    pub before_hits: u64,
    /// Hits after.
    pub after_hits: u64,
    /// Paired questions that went from miss to hit.
    pub gained: Vec<String>,
    /// Paired questions that went from hit to miss.
    pub lost: Vec<String>,
    /// Exact two-sided McNemar p-value on (gained, lost).
    pub p_value: f64,
    /// Whether the after rate is below the before rate.
    pub regressed: bool,
    /// Whether `delta_ci` and `p_value` disagree on whether the change is told from chance.
    pub disagreement: Option<Disagreement>,
}

/// `page_mrr` of one scope, before and after.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MrrDelta {
    /// Before.
    pub before: f64,
    /// Before's bootstrap interval, as the report states it (`null` when it states none).
    pub before_ci: Option<Interval>,
    /// After.
    pub after: f64,
    /// After's bootstrap interval, as the report states it.
    pub after_ci: Option<Interval>,
    /// `after - before`, rounded to 4 places.
    pub delta: f64,
}

/// A ranking metric of one scope, before and after. Each side is `null` when its report does
/// not state the metric (its `ranking_note` says why), and the change then is too.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankingDelta {
    /// The metric (serialized as its report key).
    pub metric: Ranking,
    /// The before mean.
    pub before: Option<f64>,
    /// Its bootstrap interval, as the report states it.
    pub before_ci: Option<Interval>,
    /// The after mean.
    pub after: Option<f64>,
    /// Its bootstrap interval, as the report states it.
    pub after_ci: Option<Interval>,
    /// `after - before`, rounded to 4 places.
    pub delta: Option<f64>,
    /// The 95% interval of the paired difference: the percentile bootstrap (the method and
    /// seed of `page_mrr_ci`) of the mean of the paired items' differences (after − before),
    /// rounded; `null` without paired items or when a side does not state the metric.
    pub delta_ci: Option<Interval>,
    /// Whether the after mean is below the before mean.
    pub regressed: bool,
}

/// The comparison of one scope: `overall` or a group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScopeComparison {
    /// `overall` or a group (serialized as its name).
    pub scope: Scope,
    /// Items scored before.
    pub n_before: u64,
    /// Items scored after.
    pub n_after: u64,
    /// Items present in both reports.
    pub paired: usize,
    /// The smallest change of a rate the exact McNemar test could call significant over the
    /// paired items (`6 / paired`, rounded); `null` under 6 pairs, where none can.
    pub min_significant_delta: Option<f64>,
    /// One row per metric; serialized as a list in [`Metric::ALL`] order.
    pub metrics: PerMetric<MetricDelta>,
    /// `page_mrr`.
    pub page_mrr: MrrDelta,
    /// One row per ranking metric, in [`Ranking::ALL`] order, filled in by [`compare_ranked`]
    /// (empty after [`compare`] alone).
    pub ranking: Vec<RankingDelta>,
    /// What the movement means, per the reading guide, when something moved.
    pub note: Option<String>,
}

impl ScopeComparison {
    /// The metrics whose after rate is below the before rate, in [`Metric::ALL`] order.
    pub fn regressions(&self) -> Vec<Metric> {
        self.metrics
            .values()
            .filter(|m| m.regressed)
            .map(|m| m.metric)
            .collect()
    }

    /// The row of `metric`.
    pub fn metric(&self, metric: Metric) -> &MetricDelta {
        &self.metrics[metric]
    }
}

/// What `--fail-on-regression` watches: a scope, and one metric of it or all of them.
///
/// Written `SCOPE` (any metric of the scope) or `SCOPE:METRIC`, e.g. `overall:page_hit_at_3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gate {
    /// The scope watched.
    pub scope: Scope,
    /// The metric watched; `None` watches every metric.
    pub metric: Option<Metric>,
}

impl Gate {
    /// The metrics of `comparison` this gate trips on: empty when it holds (or when the
    /// comparison lacks the scope; see [`Comparison::scope`]).
    pub fn tripped_by(&self, comparison: &Comparison) -> Vec<Metric> {
        comparison.scope(self.scope).map_or_else(Vec::new, |s| {
            s.regressions()
                .into_iter()
                .filter(|&m| self.metric.is_none_or(|g| g == m))
                .collect()
        })
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.metric {
            Some(m) => write!(f, "{}:{m}", self.scope),
            None => write!(f, "{}", self.scope),
        }
    }
}

/// Why a text is not a gate (`SCOPE` or `SCOPE:METRIC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateError {
    /// The scope is neither `overall` nor a group.
    Scope(UnknownScope),
    /// The metric after the `:` is not one of the four hit metrics.
    Metric(UnknownMetric),
}

impl fmt::Display for GateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GateError::Scope(e) => e.fmt(f),
            GateError::Metric(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GateError {}

impl FromStr for Gate {
    type Err = GateError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let (scope, metric) = match s.split_once(':') {
            Some((scope, metric)) => (
                scope.trim(),
                Some(metric.trim().parse().map_err(GateError::Metric)?),
            ),
            None => (s, None),
        };
        Ok(Gate {
            scope: scope.parse().map_err(GateError::Scope)?,
            metric,
        })
    }
}

/// A before/after comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Loud warnings: settings that differ, unpaired questions, regrouped items.
    pub warnings: Vec<String>,
    /// `overall` first, then each group present in either report, by name.
    pub scopes: Vec<ScopeComparison>,
    /// Questions only in the before report.
    pub unpaired_before: Vec<String>,
    /// Questions only in the after report.
    pub unpaired_after: Vec<String>,
    /// Whether the prose control group held: `None` when neither report has prose items.
    pub prose_verdict: Option<String>,
    /// The reading guide.
    pub reading_guide: Vec<&'static str>,
    /// Per scope, the smallest change that could be significant, e.g. `prose (n 7): only a
    /// change of 0.86 or more could be significant`.
    pub too_small_to_tell: Vec<String>,
}

impl Comparison {
    /// The comparison of `scope`; `None` for a group neither report has items of.
    pub fn scope(&self, scope: Scope) -> Option<&ScopeComparison> {
        self.scopes.iter().find(|s| s.scope == scope)
    }

    /// The scopes compared, in order.
    pub fn scope_list(&self) -> Vec<Scope> {
        self.scopes.iter().map(|s| s.scope).collect()
    }
}

/// The exact two-sided McNemar p-value on `gained` and `lost` discordant pairs:
/// `min(1, 2 · Σ_{i=0}^{min(g,l)} C(g+l, i) / 2^(g+l))`, and 1.0 when there are none.
///
/// Summed in log space so that thousands of discordant pairs neither overflow nor underflow.
pub(crate) fn mcnemar_p(gained: u64, lost: u64) -> f64 {
    let n = gained + lost;
    if n == 0 {
        return 1.0;
    }
    let k = gained.min(lost);
    let ln2 = std::f64::consts::LN_2;
    // ln of each term C(n, i) / 2^n, built by C(n, i) = C(n, i-1) · (n-i+1) / i.
    let mut ln_term = -(n as f64) * ln2;
    let mut ln_terms = Vec::with_capacity(k as usize + 1);
    ln_terms.push(ln_term);
    for i in 1..=k {
        ln_term += ((n - i + 1) as f64).ln() - (i as f64).ln();
        ln_terms.push(ln_term);
    }
    let max = ln_terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = ln_terms.iter().map(|t| (t - max).exp()).sum();
    (2.0 * (max + sum.ln()).exp()).min(1.0)
}

/// Compares two reports.
pub fn compare(before: &Report, after: &Report) -> Comparison {
    let mut warnings = settings_warnings(before, after);
    let before_items: HashMap<&str, &ItemRecord> = before
        .per_item
        .iter()
        .map(|r| (r.question.as_str(), r))
        .collect();
    // The same map type as `before_items` (one compiled map, and no sort as a set would need).
    let after_items: HashMap<&str, &ItemRecord> = after
        .per_item
        .iter()
        .map(|r| (r.question.as_str(), r))
        .collect();
    let pairs: Vec<(&ItemRecord, &ItemRecord)> = after
        .per_item
        .iter()
        .filter_map(|a| before_items.get(a.question.as_str()).map(|&b| (b, a)))
        .collect();
    let unpaired_before: Vec<String> = before
        .per_item
        .iter()
        .filter(|r| !after_items.contains_key(r.question.as_str()))
        .map(|r| r.question.clone())
        .collect();
    let unpaired_after: Vec<String> = after
        .per_item
        .iter()
        .filter(|r| !before_items.contains_key(r.question.as_str()))
        .map(|r| r.question.clone())
        .collect();
    if !unpaired_before.is_empty() || !unpaired_after.is_empty() {
        warnings.push(format!(
            "the reports do not hold the same questions: {} only before, {} only after; \
             gained and lost count paired questions only",
            unpaired_before.len(),
            unpaired_after.len()
        ));
    }
    let regrouped = pairs.iter().filter(|(b, a)| b.group != a.group).count();
    if regrouped > 0 {
        warnings.push(format!(
            "{} changed group between the reports; the after grouping is used",
            crate::describe::counted(regrouped, "paired question", "paired questions")
        ));
    }
    for (label, r) in [("before", before), ("after", after)] {
        if let Some(w) = r.unchecked_warning() {
            warnings.push(format!("the {label} report: {w}"));
        }
        if !r.unscored.is_empty() {
            warnings.push(format!(
                "the {label} report left {} unscored",
                crate::describe::counted(r.unscored.len(), "item", "items")
            ));
        }
    }

    // The groups either report has, in report order.
    let groups = Group::ALL
        .into_iter()
        .filter(|g| before.by_group.contains_key(g) || after.by_group.contains_key(g));
    let empty = Summary::of([]);
    let mut scopes = vec![scope(
        Scope::Overall,
        &before.summary,
        &after.summary,
        &pairs,
    )];
    for g in groups {
        scopes.push(scope(
            Scope::Group(g),
            before.by_group.get(&g).unwrap_or(&empty),
            after.by_group.get(&g).unwrap_or(&empty),
            &pairs,
        ));
    }
    let prose_verdict = scopes
        .iter()
        .find(|s| s.scope == Scope::Group(Group::Prose))
        .map(|s| {
            let reg = s.regressions();
            if reg.is_empty() {
                "prose control held: no prose metric fell, so the change did not cost ordinary retrieval"
                    .to_string()
            } else {
                format!(
                    "prose control REGRESSED on {}: the change costs ordinary retrieval",
                    names(&reg)
                )
            }
        });
    let too_small_to_tell = scopes.iter().map(too_small_to_tell).collect();
    Comparison {
        warnings,
        scopes,
        unpaired_before,
        unpaired_after,
        prose_verdict,
        reading_guide: READING_GUIDE.to_vec(),
        too_small_to_tell,
    }
}

/// The reading guide's line on how large a change of `s` must be to be told from chance.
fn too_small_to_tell(s: &ScopeComparison) -> String {
    match s.min_significant_delta {
        Some(d) => format!(
            "{} (n {}): only a change of {} or more could be significant",
            s.scope,
            s.paired,
            decimal::fixed(d, 2)
        ),
        None => format!(
            "{} (n {}): no change could be significant; McNemar needs at least 6 paired items \
             flipping the same way",
            s.scope, s.paired
        ),
    }
}

/// Metric names joined with `, `.
pub fn names(metrics: &[Metric]) -> String {
    let names: Vec<&str> = metrics.iter().map(|m| m.name()).collect();
    names.join(", ")
}

fn settings_warnings(before: &Report, after: &Report) -> Vec<String> {
    let mut w = Vec::new();
    let mut differ = |what: &str, b: String, a: String| {
        if b != a {
            w.push(format!(
                "{what} differs: {b} before, {a} after; the numbers may not be comparable"
            ));
        }
    };
    let opt = |v: Option<String>| v.unwrap_or_else(|| "unknown".into());
    differ(
        "corpus_id",
        before.corpus_id.clone(),
        after.corpus_id.clone(),
    );
    differ(
        "top_k",
        opt(before.top_k.map(|k| k.to_string())),
        opt(after.top_k.map(|k| k.to_string())),
    );
    differ(
        "cache_mode",
        opt(before.cache_mode.map(|m| m.to_string())),
        opt(after.cache_mode.map(|m| m.to_string())),
    );
    differ(
        "max_precise_span_pages",
        before.max_precise_span_pages.to_string(),
        after.max_precise_span_pages.to_string(),
    );
    w
}

/// The comparison of one scope over the paired items of it (a group's by the after grouping).
fn scope(
    name: Scope,
    before: &Summary,
    after: &Summary,
    all_pairs: &[(&ItemRecord, &ItemRecord)],
) -> ScopeComparison {
    let pairs = all_pairs.iter().copied().filter(|(_, a)| match name {
        Scope::Overall => true,
        Scope::Group(g) => a.group == g,
    });
    let metrics = PerMetric::from_fn(|m| {
        let (mut gained, mut lost) = (Vec::new(), Vec::new());
        let mut table = PairedCounts::default();
        for (b, a) in pairs.clone() {
            match (b.hit(m), a.hit(m)) {
                (false, true) => gained.push(a.question.clone()),
                (true, false) => lost.push(a.question.clone()),
                (true, true) => table.both += 1,
                (false, false) => table.neither += 1,
            }
        }
        table.gained = gained.len() as u64;
        table.lost = lost.len() as u64;
        let delta_ci = newcombe_paired(table).map(Interval::rounded);
        let p_value = mcnemar_p(table.gained, table.lost);
        MetricDelta {
            metric: m,
            before: before.rate(m),
            before_ci: before.ci(m),
            after: after.rate(m),
            after_ci: after.ci(m),
            delta: round4(after.rate(m) - before.rate(m)),
            delta_ci,
            before_hits: before.hits(m),
            after_hits: after.hits(m),
            p_value,
            gained,
            lost,
            regressed: after.rate(m) < before.rate(m),
            disagreement: Disagreement::of(delta_ci, p_value),
        }
    });
    let page = &metrics[Metric::PageHitAt3];
    let figure = &metrics[Metric::FigureChunkAt3];
    let note = if page.delta > 0.0 && figure.delta == 0.0 {
        Some(
            "page_hit_at_3 rose while figure_chunk_at_3 is flat: the prose around the figure did the work"
                .to_string(),
        )
    } else if page.delta > 0.0 && figure.delta > 0.0 {
        Some("page_hit_at_3 rose with figure_chunk_at_3: figure chunks moved it".to_string())
    } else if page.delta < 0.0 {
        Some("page_hit_at_3 fell".to_string())
    } else {
        None
    };
    let paired = pairs.clone().count();
    ScopeComparison {
        scope: name,
        n_before: before.n,
        n_after: after.n,
        paired,
        min_significant_delta: min_significant_delta(paired as u64),
        page_mrr: MrrDelta {
            before: before.page_mrr,
            before_ci: before.page_mrr_ci,
            after: after.page_mrr,
            after_ci: after.page_mrr_ci,
            delta: round4(after.page_mrr - before.page_mrr),
        },
        metrics,
        ranking: Vec::new(),
        note,
    }
}

/// [`compare`], with the ranking metrics' rows of every scope ([`ScopeComparison::ranking`])
/// filled in: what `figeval compare` prints. (A separate step, so that the page, whose compare
/// view does not show them, does not carry their code.)
pub fn compare_ranked(before: &Report, after: &Report) -> Comparison {
    let mut c = compare(before, after);
    let before_items: HashMap<&str, &ItemRecord> =
        HashMap::from_iter(before.per_item.iter().map(|r| (r.question.as_str(), r)));
    let empty = Summary::of([]);
    for s in &mut c.scopes {
        let (b_sum, a_sum) = match s.scope {
            Scope::Overall => (&before.summary, &after.summary),
            Scope::Group(g) => (
                before.by_group.get(&g).unwrap_or(&empty),
                after.by_group.get(&g).unwrap_or(&empty),
            ),
        };
        // The paired differences (after − before) of the four ranking metrics over the scope's
        // paired items (a group's by the after grouping); none unless every pair has its ranks.
        let mut diffs: [Vec<f64>; 4] = Default::default();
        let in_scope = after
            .per_item
            .iter()
            .filter(|a| s.scope == Scope::Overall || s.scope == Scope::Group(a.group));
        for pa in in_scope {
            let Some(pb) = before_items.get(pa.question.as_str()) else {
                continue;
            };
            let (Some(xs), Some(ys)) = (pb.rankings(), pa.rankings()) else {
                diffs = Default::default();
                break;
            };
            for i in 0..4 {
                diffs[i].push(ys[i] - xs[i]);
            }
        }
        for m in Ranking::ALL {
            let (b, a) = (b_sum.ranking(m), a_sum.ranking(m));
            let both = b.zip(a);
            s.ranking.push(RankingDelta {
                metric: m,
                before: b,
                before_ci: b_sum.ranking_ci(m),
                after: a,
                after_ci: a_sum.ranking_ci(m),
                delta: both.map(|(b, a)| round4(a - b)),
                // Only where both sides state the metric (so both were deep enough).
                delta_ci: both
                    .and_then(|_| percentile_bootstrap_mean(&diffs[m as usize]))
                    .map(Interval::rounded),
                regressed: both.is_some_and(|(b, a)| a < b),
            });
        }
    }
    c
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::dataset::Kind;
    use crate::report::RunInfo;
    use crate::report::Scored;
    use crate::request::{CacheMode, RequestInfo};
    use crate::score::ScoreConfig;

    /// A record of `q` in `group` that hits (at rank 1) or misses on every page metric.
    pub(crate) fn record(q: &str, group: Group, hit: bool) -> ItemRecord {
        ItemRecord {
            question: q.into(),
            figure_ref: "F".into(),
            kind: Kind::Locate,
            group,
            tags: vec![],
            expected_pages: vec![1],
            expected_locations: vec![],
            matches_returned: 5,
            page_hit_at_3: hit,
            page_hit_at_5: hit,
            precise_page_hit_at_3: hit,
            figure_chunk_at_3: false,
            first_hit_rank: hit.then_some(1),
            expected_page_ranks: vec![u32::from(hit)],
            top: vec![],
            figure_summaries_at_3: vec![],
        }
    }

    /// The report of `records`, asked with `top_k`.
    pub(crate) fn report(records: Vec<ItemRecord>, top_k: u32) -> Report {
        Report::build(
            Scored {
                corpus_id: "c".into(),
                config: ScoreConfig::default(),
                request: RequestInfo {
                    base_url: None,
                    top_k: Some(top_k),
                    cache_mode: Some(CacheMode::Bypass),
                },
                records,
                unscored: vec![],
                hits_without_page: None,
                connector: None,
            },
            RunInfo::default(),
        )
    }

    #[test]
    fn mcnemar_matches_the_exact_binomial_values() {
        assert_eq!(mcnemar_p(0, 0), 1.0);
        assert!((mcnemar_p(5, 0) - 0.0625).abs() < 1e-12);
        assert!((mcnemar_p(0, 5) - 0.0625).abs() < 1e-12);
        assert!((mcnemar_p(9, 1) - 22.0 / 1024.0).abs() < 1e-12);
        assert!((mcnemar_p(10, 0) - 2.0 / 1024.0).abs() < 1e-15);
        assert_eq!(mcnemar_p(3, 3), 1.0, "capped at 1");
        assert_eq!(mcnemar_p(1, 0), 1.0);
    }

    #[test]
    fn mcnemar_stays_finite_for_thousands_of_pairs() {
        let p = mcnemar_p(6000, 4000);
        assert!(p > 0.0 && p < 1e-80, "{p}");
        let p = mcnemar_p(5000, 5000);
        assert!((p - 1.0).abs() < 1e-9, "{p}");
        assert!(mcnemar_p(100_000, 0) == 0.0 || mcnemar_p(100_000, 0) < 1e-300);
    }

    #[test]
    fn gains_losses_and_regressions_are_found_per_group() {
        let before = report(
            vec![
                record("a", Group::Locate, false),
                record("b", Group::Locate, false),
                record("c", Group::Prose, true),
                record("gone", Group::Locate, true),
            ],
            5,
        );
        let after = report(
            vec![
                record("a", Group::Locate, true),
                record("b", Group::Locate, true),
                record("c", Group::Prose, false),
                record("new", Group::Locate, false),
            ],
            8,
        );
        let c = compare(&before, &after);
        assert_eq!(
            c.scope_list(),
            [
                Scope::Overall,
                Scope::Group(Group::Locate),
                Scope::Group(Group::Prose)
            ]
        );
        let locate = c
            .scope(Scope::Group(Group::Locate))
            .unwrap()
            .metric(Metric::PageHitAt3);
        assert_eq!(locate.gained, ["a", "b"]);
        assert!(locate.lost.is_empty());
        assert!((locate.p_value - 0.5).abs() < 1e-12);
        let prose = c.scope(Scope::Group(Group::Prose)).unwrap();
        assert_eq!(prose.metric(Metric::PageHitAt3).lost, ["c"]);
        assert!(prose.regressions().contains(&Metric::PageHitAt3));
        assert!(c.prose_verdict.as_deref().unwrap().contains("REGRESSED"));
        assert_eq!(c.unpaired_before, ["gone"]);
        assert_eq!(c.unpaired_after, ["new"]);
        assert!(c
            .warnings
            .iter()
            .any(|w| w.starts_with("top_k differs: 5 before, 8 after")));
        assert!(c
            .warnings
            .iter()
            .any(|w| w.contains("1 only before, 1 only after")));
    }

    #[test]
    fn a_paired_change_gets_newcombes_interval_and_the_guide_says_what_is_too_small() {
        // The locate items make the paired table 1, 1, 7, 12 of Fagerland et al.'s example:
        // 1 hit both times, 1 gained, 7 lost, 12 missed both times.
        let (mut before, mut after) = (Vec::new(), Vec::new());
        for (i, (b, a)) in std::iter::repeat_n((true, true), 1)
            .chain(std::iter::repeat_n((false, true), 1))
            .chain(std::iter::repeat_n((true, false), 7))
            .chain(std::iter::repeat_n((false, false), 12))
            .enumerate()
        {
            before.push(record(&format!("l{i}"), Group::Locate, b));
            after.push(record(&format!("l{i}"), Group::Locate, a));
        }
        for i in 0..5 {
            before.push(record(&format!("p{i}"), Group::Prose, false));
            after.push(record(&format!("p{i}"), Group::Prose, true));
        }
        let c = compare(&report(before, 5), &report(after, 5));
        let locate = c.scope(Scope::Group(Group::Locate)).unwrap();
        let m = locate.metric(Metric::PageHitAt3);
        assert_eq!(
            m.delta_ci,
            Some(Interval {
                lo: -0.5069,
                hi: -0.0256
            })
        );
        assert_eq!(
            m.before_ci,
            Some(Interval {
                lo: 0.2075,
                hi: 0.5912
            })
        );
        assert_eq!(locate.min_significant_delta, Some(0.2857));
        let prose = c.scope(Scope::Group(Group::Prose)).unwrap();
        assert_eq!(prose.min_significant_delta, None);
        assert_eq!(
            c.too_small_to_tell,
            [
                "overall (n 26): only a change of 0.23 or more could be significant",
                "locate (n 21): only a change of 0.29 or more could be significant",
                "prose (n 5): no change could be significant; McNemar needs at least 6 paired \
                 items flipping the same way",
            ]
        );
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(
            json["scopes"][1]["metrics"][0]["delta_ci"],
            serde_json::json!([-0.5069, -0.0256])
        );
        assert!(json["scopes"][2]["min_significant_delta"].is_null());
    }

    #[test]
    fn identical_reports_show_no_movement() {
        let r = report(vec![record("a", Group::Locate, true)], 5);
        let c = compare(&r, &r);
        assert!(c.warnings.is_empty());
        for s in &c.scopes {
            assert!(s.regressions().is_empty());
            assert!(s
                .metrics
                .values()
                .all(|m| m.delta == 0.0 && m.p_value == 1.0));
            assert_eq!(s.note, None);
        }
    }

    #[test]
    fn a_gate_watches_one_scope_and_all_or_one_of_its_metrics() {
        let before = report(vec![record("a", Group::Prose, true)], 5);
        let after = report(vec![record("a", Group::Prose, false)], 5);
        let c = compare(&before, &after);
        let gate = |s: &str| s.parse::<Gate>().unwrap();
        assert_eq!(
            gate("prose").tripped_by(&c),
            [
                Metric::PageHitAt3,
                Metric::PageHitAt5,
                Metric::PrecisePageHitAt3
            ]
        );
        assert_eq!(
            gate(" overall : page_hit_at_5 ").tripped_by(&c),
            [Metric::PageHitAt5]
        );
        assert!(gate("overall:figure_chunk_at_3").tripped_by(&c).is_empty());
        assert!(gate("locate").tripped_by(&c).is_empty(), "no locate items");
        assert_eq!(
            gate("prose:page_hit_at_3").to_string(),
            "prose:page_hit_at_3"
        );
        let e = "overall:page_hit_at_4".parse::<Gate>().unwrap_err();
        assert_eq!(
            e,
            GateError::Metric(UnknownMetric {
                name: "page_hit_at_4".into()
            })
        );
        assert!(e.to_string().contains("is not a metric"), "{e}");
        let e = "figures".parse::<Gate>().unwrap_err();
        assert_eq!(
            e,
            GateError::Scope(UnknownScope {
                name: "figures".into()
            })
        );
        assert!(e.to_string().contains("neither overall nor a group"), "{e}");
    }

    #[test]
    fn the_json_of_a_comparison_names_scopes_and_metrics_as_reports_do() {
        let r = report(vec![record("a", Group::Locate, true)], 5);
        let v = serde_json::to_value(compare(&r, &r)).unwrap();
        let scopes: Vec<&str> = v["scopes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["scope"].as_str().unwrap())
            .collect();
        assert_eq!(scopes, ["overall", "locate"]);
        let metrics: Vec<&str> = v["scopes"][0]["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["metric"].as_str().unwrap())
            .collect();
        assert_eq!(metrics, Metric::ALL.map(Metric::name));
    }

    #[test]
    fn ranking_metrics_compare_with_a_paired_bootstrap_interval_and_null_below_depth() {
        let records = |hit_from: usize| -> Vec<ItemRecord> {
            (0..20)
                .map(|i| record(&format!("q{i}"), Group::Locate, i >= hit_from))
                .collect()
        };
        let c = compare_ranked(&report(records(10), 10), &report(records(2), 10));
        let ndcg = &c.scopes[0].ranking[0];
        assert_eq!(ndcg.metric, Ranking::NdcgAt5);
        assert_eq!(
            (ndcg.before, ndcg.after, ndcg.delta),
            (Some(0.5), Some(0.9), Some(0.4))
        );
        assert!(!ndcg.regressed);
        // Eight items gained 1 and twelve did not move: the paired differences' bootstrap.
        let diffs: Vec<f64> = (0..20)
            .map(|i| if (2..10).contains(&i) { 1.0 } else { 0.0 })
            .collect();
        assert_eq!(
            ndcg.delta_ci,
            percentile_bootstrap_mean(&diffs).map(Interval::rounded)
        );
        let ci = ndcg.delta_ci.unwrap();
        assert!(ci.lo > 0.0 && ci.hi < 0.4 + 0.3, "{ci:?}");
        // Below top_k 10 on one side, the @10 rows state nothing but that side's @5.
        let c = compare_ranked(&report(records(10), 5), &report(records(2), 10));
        let at10 = &c.scopes[0].ranking[1];
        assert_eq!(at10.metric, Ranking::NdcgAt10);
        assert_eq!((at10.before, at10.after), (None, Some(0.9)));
        assert_eq!(
            (at10.delta, at10.delta_ci, at10.regressed),
            (None, None, false)
        );
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["scopes"][0]["ranking"][1]["metric"], "ndcg_at_10");
        assert!(json["scopes"][0]["ranking"][1]["delta"].is_null());
        let text = crate::render::comparison_text(&c, "a", "b");
        assert!(text.contains("  ndcg_at_10 "), "{text}");
        assert!(text.contains("null"), "{text}");
    }

    #[test]
    fn a_page_gain_without_figure_chunks_is_credited_to_prose() {
        let before = report(vec![record("a", Group::Locate, false)], 5);
        let after = report(vec![record("a", Group::Locate, true)], 5);
        let c = compare(&before, &after);
        assert!(c.scopes[0]
            .note
            .as_deref()
            .unwrap()
            .contains("the prose around the figure did the work"));
    }
}
