//! Summaries of a set of per-item records (contract §5.1).

use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::decimal::round4;
use crate::score::{ItemRecord, Metric, PerMetric};
use crate::stats::{percentile_bootstrap_mean, wilson, Interval};

/// Rates, hit counts and MRR over a set of items, each with its 95% interval.
///
/// The interval of a rate is its Wilson score interval, computed from `hits` and `n`
/// ([`Summary::ci`]); the interval of `page_mrr` is a percentile bootstrap over the items'
/// reciprocal ranks ([`percentile_bootstrap_mean`]), so it is kept. Both are rounded like the
/// rates and absent (`null`) when `n` is 0.
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
}

impl Summary {
    /// Summarizes the records, in dataset order.
    pub fn of<'a>(records: impl IntoIterator<Item = &'a ItemRecord>) -> Summary {
        let mut n = 0u64;
        let mut hits = PerMetric::<u64>::default();
        let mut rr_sum = 0.0f64;
        let mut reciprocal_ranks = Vec::new();
        for r in records {
            n += 1;
            for m in Metric::ALL {
                hits[m] += u64::from(r.hit(m));
            }
            rr_sum += r.reciprocal_rank();
            reciprocal_ranks.push(r.reciprocal_rank());
        }
        let rate = |x: f64| if n == 0 { 0.0 } else { round4(x / n as f64) };
        Summary {
            n,
            rates: hits.map(|_, &h| rate(h as f64)),
            hits,
            page_mrr: rate(rr_sum),
            page_mrr_ci: percentile_bootstrap_mean(&reciprocal_ranks).map(Interval::rounded),
        }
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
        map
    }

    /// Reads a summary's keys from a JSON map; every key must be present and well typed.
    pub fn from_map(map: &Map<String, Value>) -> Result<Summary, String> {
        let count = |key: &str| {
            map.get(key)
                .and_then(Value::as_u64)
                .ok_or_else(|| format!("`{key}` is missing or not a non-negative integer"))
        };
        let rate = |key: &str| {
            map.get(key)
                .and_then(Value::as_f64)
                .filter(|r| (0.0..=1.0).contains(r))
                .ok_or_else(|| format!("`{key}` is missing or not a rate in 0..=1"))
        };
        let mut hits = PerMetric::default();
        let mut rates = PerMetric::default();
        for m in Metric::ALL {
            hits[m] = count(m.hits_name())?;
            rates[m] = rate(m.name())?;
        }
        let summary = Summary {
            n: count("n")?,
            hits,
            rates,
            page_mrr: rate("page_mrr")?,
            page_mrr_ci: stated_interval(map, "page_mrr_ci")?.flatten(),
        };
        // A rate's interval follows from its hits and n, so a stated one must be that one.
        for m in Metric::ALL {
            if let Some(stated) = stated_interval(map, m.ci_name())? {
                let expected = summary.ci(m);
                if stated != expected {
                    return Err(format!(
                        "`{}` is {} but {} of {} give {}",
                        m.ci_name(),
                        interval_value(stated),
                        summary.hits(m),
                        summary.n,
                        interval_value(expected)
                    ));
                }
            }
        }
        if summary.n == 0 && summary.page_mrr_ci.is_some() {
            return Err("`page_mrr_ci` must be null when `n` is 0".into());
        }
        Ok(summary)
    }
}

/// An interval as JSON: `[lo, hi]`, or `null` for none.
fn interval_value(i: Option<Interval>) -> Value {
    i.map_or(Value::Null, |i| serde_json::json!([i.lo, i.hi]))
}

/// The interval stated at `key`: `None` when the key is absent (a report from before
/// intervals), `Some(None)` for `null`, or the interval, which must lie within 0..=1.
fn stated_interval(
    map: &Map<String, Value>,
    key: &str,
) -> Result<Option<Option<Interval>>, String> {
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
        .ok_or_else(|| format!("`{key}` is not null or an interval [lo, hi] within 0..=1"))
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

    fn record(hits: [bool; 4], rank: Option<u32>) -> ItemRecord {
        ItemRecord {
            question: "q".into(),
            figure_ref: "f".into(),
            kind: Kind::Locate,
            group: Group::Locate,
            tags: vec![],
            expected_pages: vec![1],
            matches_returned: 5,
            page_hit_at_3: hits[0],
            page_hit_at_5: hits[1],
            precise_page_hit_at_3: hits[2],
            figure_chunk_at_3: hits[3],
            first_hit_rank: rank,
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
                "page_mrr_ci"
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
    fn a_stated_rate_interval_that_its_hits_contradict_is_refused() {
        let s = Summary::of(&[record([true, true, false, false], Some(2))]);
        let mut v = serde_json::to_value(&s).unwrap();
        v["page_hit_at_3_ci"] = serde_json::json!([0.5, 0.9]);
        let e = Summary::from_map(v.as_object().unwrap()).unwrap_err();
        assert!(
            e.starts_with("`page_hit_at_3_ci` is [0.5,0.9] but 1 of 1 give [0.2065,1.0]"),
            "{e}"
        );
        v["page_hit_at_3_ci"] = serde_json::json!([0.9, 0.5]);
        let e = Summary::from_map(v.as_object().unwrap()).unwrap_err();
        assert!(e.contains("not null or an interval"), "{e}");
    }
}
