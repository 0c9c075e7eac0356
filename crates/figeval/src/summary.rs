//! Summaries of a set of per-item records (contract §5.1).

use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::decimal::round4;
use crate::score::{ItemRecord, Metric, PerMetric, Ranking};
use crate::stats::{percentile_bootstrap_means, wilson, Interval};

/// Rates, hit counts and MRR over a set of items, each with its 95% interval.
///
/// The interval of a rate is its Wilson score interval, computed from `hits` and `n`
/// ([`Summary::ci`]); the interval of `page_mrr` is a percentile bootstrap over the items'
/// reciprocal ranks (`stats::percentile_bootstrap_mean`), so it is kept. Both are
/// rounded like the rates and absent (`null`) when `n` is 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// How many items were scored.
    pub n: u64,
    /// Hits per metric.
    hits: PerMetric<u64>,
    /// Rates per metric (hits / n rounded).
    rates: PerMetric<f64>,
    /// Mean reciprocal rank of the first hit, rounded.
    pub page_mrr: f64,
    /// The bootstrap interval of `page_mrr`, rounded; `None` when `n` is 0.
    pub page_mrr_ci: Option<Interval>,
    /// Per ranking metric, in [`Ranking::ALL`] order: the mean over the items, rounded, with
    /// its bootstrap interval; `None` when not stated (see [`Summary::at_depth`]).
    ranking: [Option<(f64, Option<Interval>)>; 4],
    /// Why ranking metrics are `None`: one of [`RANKING_NOTES`], or for a depth read from the
    /// answers the one that names an answer holding fewer matches ([`Depth::note`]); `None`
    /// when all are stated.
    pub ranking_note: Option<String>,
}

/// How many matches every answer of a report can be read to: what decides which ranking
/// metrics a summary states (contract §4.1). A metric at k needs the first k matches of every
/// answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Depth {
    /// The `top_k` the searches asked for. An answer with fewer matches had no more to give.
    TopK(u32),
    /// `top_k` is unknown, so the answers say it: the fewest matches an answer holds, and the
    /// question of the first answer (in dataset order) that holds that few.
    Fewest {
        /// The fewest matches an answer holds.
        matches: u32,
        /// The question of the first answer that holds that few.
        question: String,
    },
    /// `top_k` is unknown and not read from the answers: there is none, or the report was
    /// written before depths were read from answers (its note says so, [`RANKING_NOTES`]'s
    /// third).
    Unknown,
}

impl Depth {
    /// The depth of a report's records: its `top_k` when known, else read from the answers.
    pub fn of<'a>(top_k: Option<u32>, records: impl IntoIterator<Item = &'a ItemRecord>) -> Depth {
        if let Some(k) = top_k {
            return Depth::TopK(k);
        }
        let mut fewest: Option<&ItemRecord> = None;
        for r in records {
            if fewest.is_none_or(|f| r.matches_returned < f.matches_returned) {
                fewest = Some(r);
            }
        }
        fewest.map_or(Depth::Unknown, |r| Depth::Fewest {
            matches: r.matches_returned,
            question: r.question.clone(),
        })
    }

    /// How many matches every answer can be read to: the metrics at this many or fewer are
    /// stated.
    pub fn matches(&self) -> u32 {
        match self {
            Depth::TopK(k) | Depth::Fewest { matches: k, .. } => *k,
            Depth::Unknown => 0,
        }
    }

    /// Why the ranking metrics past this depth are `null`; `None` when every one is stated.
    pub fn note(&self) -> Option<String> {
        let k = self.matches();
        if k >= 10 {
            return None;
        }
        let which = if k >= 5 {
            "ndcg_at_10 and recall_at_10 are null"
        } else {
            "every ranking metric is null"
        };
        match self {
            Depth::TopK(_) => Some(RANKING_NOTES[usize::from(k < 5)].to_string()),
            Depth::Unknown => Some(RANKING_NOTES[2].to_string()),
            Depth::Fewest { matches, question } => Some(format!(
                "{which}: top_k is unknown, and the answer to {:?} holds {}; a metric at k is \
                 never computed on fewer than k matches",
                crate::describe::question(question),
                crate::describe::counted(*matches, "match", "matches")
            )),
        }
    }
}

/// The summary's `ranking_note`: why its ranking metrics are `null` (contract §4.1). Fixed
/// texts, so that a report read back states the same one.
pub const RANKING_NOTES: [&str; 4] = [
    "ndcg_at_10 and recall_at_10 are null: top_k is below 10, and a metric at k is never \
     computed on fewer than k matches",
    "every ranking metric is null: top_k is below 5, and a metric at k is never computed on \
     fewer than k matches",
    "every ranking metric is null: top_k is unknown (the responses do not all record one \
     request), so it cannot be told whether 5 or 10 matches were asked for",
    "every ranking metric is null: the per-item records have no expected_page_ranks (written \
     before the ranking metrics)",
];

impl Summary {
    /// Summarizes the records, in dataset order, with every ranking metric computed (as when
    /// the deployment was asked for at least 10 matches).
    pub fn of<'a>(records: impl IntoIterator<Item = &'a ItemRecord>) -> Summary {
        Summary::at_depth(records, &Depth::TopK(u32::MAX))
    }

    /// Summarizes the records of a report whose answers can be read to `depth` (the report's,
    /// [`Depth::of`] all its records, for its groups too).
    ///
    /// A ranking metric is stated only when the depth is at least the metric's, and every
    /// record has its `expected_page_ranks`: never computed on fewer matches than it looks at.
    pub(crate) fn at_depth<'a>(
        records: impl IntoIterator<Item = &'a ItemRecord>,
        depth: &Depth,
    ) -> Summary {
        // Collected first, so that the summary's code is compiled once, not once per iterator
        // type a caller passes (each would weigh about 2 KB in the browser bundle).
        let records: Vec<&ItemRecord> = records.into_iter().collect();
        Summary::of_records(&records, depth)
    }

    /// [`Summary::at_depth`] of collected records.
    fn of_records(records: &[&ItemRecord], depth_read: &Depth) -> Summary {
        let mut n = 0u64;
        let mut hits = PerMetric::<u64>::default();
        // The items' values of page_mrr, then of each ranking metric (not stated once a record
        // has no ranks).
        let mut values: [Vec<f64>; 5] = Default::default();
        let mut stated = [true; 5];
        for r in records {
            n += 1;
            for m in Metric::ALL {
                hits[m] += u64::from(r.hit(m));
            }
            values[0].push(r.reciprocal_rank());
            match r.rankings() {
                Some(xs) => {
                    for i in 0..4 {
                        values[1 + i].push(xs[i]);
                    }
                }
                None => stated = [true, false, false, false, false],
            }
        }
        let rate = |x: f64| if n == 0 { 0.0 } else { round4(x / n as f64) };
        let (ranked, depth) = (stated[1], depth_read.matches());
        for (i, cell) in stated.iter_mut().enumerate().skip(1) {
            *cell &= depth >= Ranking::ALL[i - 1].depth();
        }
        // The stated means' bootstraps, drawn in one batch (on every core with `native-speed`).
        let mut samples: [Option<&[f64]>; 5] = [None; 5];
        for (sample, (xs, stated)) in samples.iter_mut().zip(values.iter().zip(stated)) {
            if stated {
                *sample = Some(xs);
            }
        }
        let drawn = percentile_bootstrap_means(samples);
        let mut means = [None; 5];
        for (i, cell) in means.iter_mut().enumerate() {
            if stated[i] {
                // Summed in dataset order.
                let sum = values[i].iter().fold(0.0, |a, x| a + x);
                *cell = Some((rate(sum), drawn[i].map(Interval::rounded)));
            }
        }
        let ranking_note = if ranked {
            depth_read.note()
        } else {
            Some(RANKING_NOTES[3].to_string())
        };
        let [mrr, ranking @ ..] = means;
        let (page_mrr, page_mrr_ci) = mrr.unwrap_or_default();
        Summary {
            n,
            rates: hits.map(|_, &h| rate(h as f64)),
            hits,
            page_mrr,
            page_mrr_ci,
            ranking,
            ranking_note,
        }
    }

    /// The mean of a ranking metric, rounded; `None` when the summary does not state it.
    pub fn ranking(&self, metric: Ranking) -> Option<f64> {
        self.ranking[metric as usize].map(|(x, _)| x)
    }

    /// The bootstrap interval of a ranking metric's mean, rounded; `None` when the summary
    /// does not state the metric or `n` is 0.
    pub fn ranking_ci(&self, metric: Ranking) -> Option<Interval> {
        self.ranking[metric as usize].and_then(|(_, ci)| ci)
    }

    /// The 95% Wilson score interval of `metric`'s rate, rounded; `None` when `n` is 0.
    pub fn ci(&self, metric: Metric) -> Option<Interval> {
        wilson(self.hits(metric), self.n).map(Interval::rounded)
    }

    /// The rate of `metric`.
    pub fn rate(&self, metric: Metric) -> f64 {
        self.rates[metric]
    }

    /// The hit count of `metric`.
    pub fn hits(&self, metric: Metric) -> u64 {
        self.hits[metric]
    }

    /// Writes the summary's keys into a JSON map (used by reports to put them at top level).
    pub fn to_map(&self) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("n".into(), self.n.into());
        for m in Metric::ALL {
            map.insert(m.name().into(), self.rate(m).into());
            map.insert(m.hits_name().into(), self.hits(m).into());
            map.insert(m.ci_name().into(), interval_value(self.ci(m)));
        }
        map.insert("page_mrr".into(), self.page_mrr.into());
        map.insert("page_mrr_ci".into(), interval_value(self.page_mrr_ci));
        for m in Ranking::ALL {
            map.insert(m.name().into(), self.ranking(m).into());
            map.insert(m.ci_name().into(), interval_value(self.ranking_ci(m)));
        }
        map.insert("ranking_note".into(), self.ranking_note.clone().into());
        map
    }

    /// Reads a summary's keys from a JSON map; every key must be present and well typed.
    pub fn from_map(map: &Map<String, Value>) -> Result<Summary, SummaryError> {
        let count = |key: &'static str| {
            map.get(key)
                .and_then(Value::as_u64)
                .ok_or(SummaryError::NotACount { key })
        };
        let rate = |key: &'static str| {
            map.get(key)
                .and_then(Value::as_f64)
                .filter(|r| (0.0..=1.0).contains(r))
                .ok_or(SummaryError::NotARate { key })
        };
        let mut hits = PerMetric::default();
        let mut rates = PerMetric::default();
        for m in Metric::ALL {
            hits[m] = count(m.hits_name())?;
            rates[m] = rate(m.name())?;
        }
        // A ranking metric may be absent (a report from before them) or null (not stated); its
        // interval is read only with it.
        let mut ranking = [None; 4];
        for m in Ranking::ALL {
            if map.get(m.name()).is_some_and(|v| !v.is_null()) {
                let ci = stated_interval(map, m.ci_name())?.flatten();
                ranking[m as usize] = Some((rate(m.name())?, ci));
            }
        }
        let summary = Summary {
            n: count("n")?,
            hits,
            rates,
            page_mrr: rate("page_mrr")?,
            page_mrr_ci: stated_interval(map, "page_mrr_ci")?.flatten(),
            ranking,
            // Read back only as one of the fixed texts; a report's own records give the rest
            // (`Report::parse`).
            ranking_note: map
                .get("ranking_note")
                .and_then(Value::as_str)
                .filter(|s| RANKING_NOTES.contains(s))
                .map(str::to_string),
        };
        // A rate's interval follows from its hits and n, so a stated one must be that one.
        for m in Metric::ALL {
            if let Some(stated) = stated_interval(map, m.ci_name())? {
                let expected = summary.ci(m);
                if stated != expected {
                    return Err(SummaryError::IntervalDisagrees {
                        key: m.ci_name(),
                        stated,
                        hits: summary.hits(m),
                        n: summary.n,
                        expected,
                    });
                }
            }
        }
        if summary.n == 0 && summary.page_mrr_ci.is_some() {
            return Err(SummaryError::IntervalWithoutItems { key: "page_mrr_ci" });
        }
        Ok(summary)
    }
}

/// Why a summary's keys are refused ([`Summary::from_map`]). Each names the key, as a report
/// writes it.
#[derive(Debug, Clone, PartialEq)]
pub enum SummaryError {
    /// A count (`n`, a metric's `_hits`) that is missing or not a whole number of 0 or more.
    NotACount {
        /// The key.
        key: &'static str,
    },
    /// A rate or mean that is missing or not a number from 0 to 1.
    NotARate {
        /// The key.
        key: &'static str,
    },
    /// An interval that is neither `null` nor `[low, high]` within 0 to 1.
    NotAnInterval {
        /// The key.
        key: &'static str,
    },
    /// A rate's stated interval that is not the one its hits and `n` give.
    IntervalDisagrees {
        /// The key.
        key: &'static str,
        /// The interval stated.
        stated: Option<Interval>,
        /// The metric's hits.
        hits: u64,
        /// The summary's `n`.
        n: u64,
        /// The interval they give.
        expected: Option<Interval>,
    },
    /// An interval stated for a summary of no items.
    IntervalWithoutItems {
        /// The key.
        key: &'static str,
    },
}

impl std::fmt::Display for SummaryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SummaryError::NotACount { key } => write!(
                f,
                "`{key}` is missing or is not a count (a whole number of 0 or more)"
            ),
            SummaryError::NotARate { key } => {
                write!(f, "`{key}` is missing or is not a number from 0 to 1")
            }
            SummaryError::NotAnInterval { key } => write!(
                f,
                "`{key}` must be null or an interval [low, high] of two numbers from 0 to 1"
            ),
            SummaryError::IntervalDisagrees {
                key,
                stated,
                hits,
                n,
                expected,
            } => write!(
                f,
                "`{key}` is {} but {hits} of {n} give {}",
                interval_value(*stated),
                interval_value(*expected)
            ),
            SummaryError::IntervalWithoutItems { key } => write!(
                f,
                "`{key}` must be null when `n` is 0: there are no items to draw an interval from"
            ),
        }
    }
}

impl std::error::Error for SummaryError {}

/// An interval as JSON: `[lo, hi]`, or `null` for none.
fn interval_value(i: Option<Interval>) -> Value {
    i.map_or(Value::Null, |i| serde_json::json!([i.lo, i.hi]))
}

/// The interval stated at `key`: `None` when the key is absent (a report from before
/// intervals), `Some(None)` for `null`, or the interval, which must lie within 0..=1.
fn stated_interval(
    map: &Map<String, Value>,
    key: &'static str,
) -> Result<Option<Option<Interval>>, SummaryError> {
    let Some(v) = map.get(key) else {
        return Ok(None);
    };
    if v.is_null() {
        return Ok(Some(None));
    }
    serde_json::from_value::<Interval>(v.clone())
        .ok()
        .filter(|i| 0.0 <= i.lo && i.hi <= 1.0)
        .map(|i| Some(Some(i)))
        .ok_or(SummaryError::NotAnInterval { key })
}

impl Serialize for Summary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map = self.to_map();
        let mut out = s.serialize_map(Some(map.len()))?;
        for (k, v) in &map {
            out.serialize_entry(k, v)?;
        }
        out.end()
    }
}

impl<'de> Deserialize<'de> for Summary {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(d)?;
        Summary::from_map(&map).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Group, Kind};
    use crate::stats::percentile_bootstrap_mean;

    fn record(hits: [bool; 4], rank: Option<u32>) -> ItemRecord {
        ItemRecord {
            question: "q".into(),
            figure_ref: "f".into(),
            kind: Kind::Locate,
            group: Group::Locate,
            tags: vec![],
            expected_pages: vec![1],
            expected_locations: vec![],
            matches_returned: 5,
            page_hit_at_3: hits[0],
            page_hit_at_5: hits[1],
            precise_page_hit_at_3: hits[2],
            figure_chunk_at_3: hits[3],
            first_hit_rank: rank,
            expected_page_ranks: vec![rank.unwrap_or(0)],
            top: vec![],
            figure_summaries_at_3: vec![],
        }
    }

    #[test]
    fn an_empty_summary_has_zero_rates() {
        let s = Summary::of([]);
        assert_eq!(s.n, 0);
        assert!(Metric::ALL
            .iter()
            .all(|&m| s.rate(m) == 0.0 && s.hits(m) == 0));
        assert_eq!(s.page_mrr, 0.0);
    }

    #[test]
    fn rates_are_hits_over_n_and_mrr_is_the_mean_reciprocal_rank() {
        let rs = [
            record([true, true, true, false], Some(1)),
            record([false, true, false, false], Some(4)),
            record([false, false, false, false], None),
        ];
        let s = Summary::of(&rs);
        assert_eq!(s.n, 3);
        assert_eq!(s.hits(Metric::PageHitAt3), 1);
        assert_eq!(s.rate(Metric::PageHitAt3), 0.3333);
        assert_eq!(s.rate(Metric::PageHitAt5), 0.6667);
        assert_eq!(s.page_mrr, round4((1.0 + 0.25) / 3.0));
        assert_eq!(s.page_mrr, 0.4167);
    }

    #[test]
    fn thirty_two_items_show_the_python_ties() {
        let rs: Vec<_> = (0..32)
            .map(|i| record([i < 1, i < 3, false, false], None))
            .collect();
        let s = Summary::of(&rs);
        assert_eq!(s.rate(Metric::PageHitAt3), 0.0312);
        assert_eq!(s.rate(Metric::PageHitAt5), 0.0938);
    }

    #[test]
    fn a_summary_serializes_every_key_and_reads_back() {
        let s = Summary::of(&[record([true, true, false, false], Some(2))]);
        let v = serde_json::to_value(&s).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "n",
                "page_hit_at_3",
                "page_hit_at_3_hits",
                "page_hit_at_3_ci",
                "page_hit_at_5",
                "page_hit_at_5_hits",
                "page_hit_at_5_ci",
                "precise_page_hit_at_3",
                "precise_page_hit_at_3_hits",
                "precise_page_hit_at_3_ci",
                "figure_chunk_at_3",
                "figure_chunk_at_3_hits",
                "figure_chunk_at_3_ci",
                "page_mrr",
                "page_mrr_ci",
                "ndcg_at_5",
                "ndcg_at_5_ci",
                "ndcg_at_10",
                "ndcg_at_10_ci",
                "recall_at_5",
                "recall_at_5_ci",
                "recall_at_10",
                "recall_at_10_ci",
                "ranking_note"
            ]
        );
        assert_eq!(serde_json::from_value::<Summary>(v).unwrap(), s);
    }

    #[test]
    fn intervals_are_wilson_for_rates_and_bootstrap_for_mrr_rounded_like_the_rates() {
        let rs: Vec<_> = (0..33)
            .map(|i| {
                record(
                    [i < 31, i < 31, i < 2, false],
                    (i < 31).then_some(1 + i % 3),
                )
            })
            .collect();
        let s = Summary::of(&rs);
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v["page_hit_at_3"], 0.9394);
        assert_eq!(v["page_hit_at_3_ci"], serde_json::json!([0.8039, 0.9832]));
        assert_eq!(v["figure_chunk_at_3_ci"], serde_json::json!([0.0, 0.1043]));
        let mrr = s.page_mrr_ci.unwrap();
        assert!(
            mrr.lo < s.page_mrr && s.page_mrr < mrr.hi,
            "{mrr:?} {}",
            s.page_mrr
        );
        assert_eq!(mrr, mrr.rounded());
    }

    #[test]
    fn an_empty_summary_has_null_intervals() {
        let v = serde_json::to_value(Summary::of([])).unwrap();
        assert!(v["page_hit_at_3_ci"].is_null() && v["page_mrr_ci"].is_null());
        assert_eq!(
            serde_json::from_value::<Summary>(v).unwrap(),
            Summary::of([])
        );
    }

    #[test]
    fn a_summary_from_before_intervals_still_reads_with_its_values_unchanged() {
        let s = Summary::of(&[record([true, true, false, false], Some(2))]);
        let mut v = serde_json::to_value(&s).unwrap();
        let map = v.as_object_mut().unwrap();
        map.retain(|k, _| !k.ends_with("_ci"));
        let old = Summary::from_map(map).unwrap();
        assert_eq!((old.n, old.page_mrr, old.page_mrr_ci), (1, 0.5, None));
        assert_eq!(old.rate(Metric::PageHitAt3), s.rate(Metric::PageHitAt3));
        assert_eq!(old.ci(Metric::PageHitAt3), s.ci(Metric::PageHitAt3));
    }

    #[test]
    fn ranking_metrics_are_means_with_bootstrap_intervals_and_null_below_their_depth() {
        let rs: Vec<_> = (0..20)
            .map(|i| record([false; 4], [Some(1), Some(3), Some(7), None][i % 4]))
            .collect();
        let s = Summary::of(&rs);
        // Recall@5: ranks 1 and 3 of every four; nDCG@5: (1 + 0.5) / 4.
        assert_eq!(s.ranking(Ranking::RecallAt5), Some(0.5));
        assert_eq!(s.ranking(Ranking::RecallAt10), Some(0.75));
        assert_eq!(s.ranking(Ranking::NdcgAt5), Some(0.375));
        let ci = s.ranking_ci(Ranking::RecallAt5).unwrap();
        assert!(ci.lo < 0.5 && 0.5 < ci.hi && ci == ci.rounded(), "{ci:?}");
        // The same bootstrap as page_mrr_ci, over the items' values.
        let values: Vec<f64> = rs
            .iter()
            .map(|r| r.ranking(Ranking::NdcgAt10).unwrap())
            .collect();
        assert_eq!(
            s.ranking_ci(Ranking::NdcgAt10),
            percentile_bootstrap_mean(&values).map(Interval::rounded)
        );
        let five = Summary::at_depth(&rs, &Depth::TopK(5));
        assert_eq!(five.ranking(Ranking::NdcgAt5), s.ranking(Ranking::NdcgAt5));
        assert_eq!(
            five.ranking_ci(Ranking::NdcgAt5),
            s.ranking_ci(Ranking::NdcgAt5)
        );
        assert_eq!(
            (
                five.ranking(Ranking::NdcgAt10),
                five.ranking_ci(Ranking::NdcgAt10)
            ),
            (None, None)
        );
        assert_eq!(five.ranking(Ranking::RecallAt10), None);
        assert_eq!(five.ranking_note.as_deref(), Some(RANKING_NOTES[0]));
        assert_eq!(s.ranking_note, None);
        assert_eq!(
            Summary::at_depth(&rs, &Depth::TopK(4))
                .ranking_note
                .as_deref(),
            Some(RANKING_NOTES[1])
        );
        assert_eq!(
            Summary::at_depth(&rs, &Depth::TopK(4)).ranking(Ranking::NdcgAt5),
            None
        );
        let v = serde_json::to_value(&five).unwrap();
        assert!(v["ndcg_at_10"].is_null() && v["recall_at_10_ci"].is_null());
        assert_eq!(serde_json::from_value::<Summary>(v).unwrap(), five);
        let unknown = Summary::at_depth(&rs, &Depth::Unknown);
        assert!(Ranking::ALL.iter().all(|&m| unknown.ranking(m).is_none()));
        assert_eq!(unknown.ranking_note.as_deref(), Some(RANKING_NOTES[2]));
    }

    #[test]
    fn without_top_k_the_depth_is_read_from_the_answers() {
        let mut rs = vec![record([true; 4], Some(1)), record([true; 4], Some(1))];
        rs[0].matches_returned = 12;
        rs[1].matches_returned = 10;
        let all = Summary::at_depth(&rs, &Depth::of(None, &rs));
        assert!(Ranking::ALL.iter().all(|&m| all.ranking(m).is_some()));
        assert_eq!(all.ranking_note, None, "every answer holds 10 or more");
        rs[1].question = "Which figure shows the descent?".into();
        rs[1].matches_returned = 7;
        let depth = Depth::of(None, &rs);
        assert_eq!(
            depth,
            Depth::Fewest {
                matches: 7,
                question: "Which figure shows the descent?".into()
            }
        );
        let five = Summary::at_depth(&rs, &depth);
        assert!(five.ranking(Ranking::NdcgAt5).is_some());
        assert_eq!(five.ranking(Ranking::RecallAt10), None);
        assert_eq!(
            five.ranking_note.as_deref(),
            Some(
                "ndcg_at_10 and recall_at_10 are null: top_k is unknown, and the answer to \
                 \"Which figure shows the descent?\" holds 7 matches; a metric at k is never \
                 computed on fewer than k matches"
            )
        );
        rs[0].matches_returned = 1;
        let none = Summary::at_depth(&rs, &Depth::of(None, &rs));
        assert!(Ranking::ALL.iter().all(|&m| none.ranking(m).is_none()));
        assert!(
            none.ranking_note.as_deref().is_some_and(|n| n.starts_with(
                "every ranking metric is null: top_k is unknown, \
                     and the answer to \"q\" holds 1 match;"
            )),
            "{:?}",
            none.ranking_note
        );
        assert_eq!(
            Depth::of(Some(5), &rs),
            Depth::TopK(5),
            "a known top_k decides"
        );
        assert_eq!(Depth::of(None, &[]), Depth::Unknown);
    }

    #[test]
    fn records_without_ranks_state_no_ranking_metric() {
        let mut old = record([true; 4], Some(1));
        old.expected_page_ranks = vec![];
        let s = Summary::of(&[record([true; 4], Some(1)), old]);
        assert!(Ranking::ALL.iter().all(|&m| s.ranking(m).is_none()));
        assert_eq!(s.ranking_note.as_deref(), Some(RANKING_NOTES[3]));
        assert_eq!(s.page_mrr, 1.0);
    }

    #[test]
    fn a_summary_without_ranking_keys_reads_as_stating_none() {
        let s = Summary::of(&[record([true, true, false, false], Some(2))]);
        let mut v = serde_json::to_value(&s).unwrap();
        let map = v.as_object_mut().unwrap();
        map.retain(|k, _| !k.starts_with("ndcg") && !k.starts_with("recall"));
        let old = Summary::from_map(map).unwrap();
        assert!(Ranking::ALL.iter().all(|&m| old.ranking(m).is_none()));
        map.insert("ndcg_at_5".into(), 1.5.into());
        let e = Summary::from_map(map).unwrap_err();
        assert_eq!(e, SummaryError::NotARate { key: "ndcg_at_5" });
        assert_eq!(
            e.to_string(),
            "`ndcg_at_5` is missing or is not a number from 0 to 1"
        );
        map.insert("ndcg_at_5".into(), 0.5.into());
        map.insert("ndcg_at_5_ci".into(), serde_json::json!([0.6, 2.0]));
        let e = Summary::from_map(map).unwrap_err();
        assert_eq!(
            e,
            SummaryError::NotAnInterval {
                key: "ndcg_at_5_ci"
            }
        );
    }

    #[test]
    fn a_stated_rate_interval_that_its_hits_contradict_is_refused() {
        let s = Summary::of(&[record([true, true, false, false], Some(2))]);
        let mut v = serde_json::to_value(&s).unwrap();
        v["page_hit_at_3_ci"] = serde_json::json!([0.5, 0.9]);
        let e = Summary::from_map(v.as_object().unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`page_hit_at_3_ci` is [0.5,0.9] but 1 of 1 give [0.2065,1.0]"
        );
        v["page_hit_at_3_ci"] = serde_json::json!([0.9, 0.5]);
        let e = Summary::from_map(v.as_object().unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`page_hit_at_3_ci` must be null or an interval [low, high] of two numbers from 0 to 1"
        );
    }
}
