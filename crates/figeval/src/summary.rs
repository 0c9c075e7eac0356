//! Summaries of a set of per-item records (contract §5.1).

use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::score::{ItemRecord, Metric, PerMetric};

/// Rounds to 4 decimal places exactly as Python's `round(x, 4)` rounds a double.
///
/// Python rounds the exact binary value, ties to even: `round(1/32, 4) == 0.0312`,
/// `round(3/32, 4) == 0.0938`, and `round(0.00015, 4) == 0.0001` because 0.00015 is stored as
/// slightly less. Rust's fixed-precision formatting works on the exact binary value with ties
/// to even as well, and parsing the decimal back gives the nearest double, as Python does.
pub fn round4(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    format!("{x:.4}").parse().unwrap_or(x)
}

/// Rates, hit counts and MRR over a set of items.
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
}

impl Summary {
    /// Summarizes the records, in dataset order.
    pub fn of<'a>(records: impl IntoIterator<Item = &'a ItemRecord>) -> Summary {
        let mut n = 0u64;
        let mut hits = PerMetric::<u64>::default();
        let mut rr_sum = 0.0f64;
        for r in records {
            n += 1;
            for m in Metric::ALL {
                hits[m] += u64::from(r.hit(m));
            }
            rr_sum += r.reciprocal_rank();
        }
        let rate = |x: f64| if n == 0 { 0.0 } else { round4(x / n as f64) };
        Summary {
            n,
            rates: hits.map(|_, &h| rate(h as f64)),
            hits,
            page_mrr: rate(rr_sum),
        }
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
        }
        map.insert("page_mrr".into(), self.page_mrr.into());
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
        Ok(Summary {
            n: count("n")?,
            hits,
            rates,
            page_mrr: rate("page_mrr")?,
        })
    }
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
    fn rounding_ties_go_to_even_on_the_exact_binary_value() {
        assert_eq!(round4(1.0 / 32.0), 0.0312);
        assert_eq!(round4(3.0 / 32.0), 0.0938);
        assert_eq!(round4(0.00015), 0.0001, "0.00015 is stored below the tie");
        assert_eq!(round4(2.0 / 3.0), 0.6667);
        assert_eq!(round4(1.0), 1.0);
        assert_eq!(round4(0.0), 0.0);
        assert_eq!(round4(5.0 / 16.0 / 1000.0), 0.0003);
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
                "page_hit_at_5",
                "page_hit_at_5_hits",
                "precise_page_hit_at_3",
                "precise_page_hit_at_3_hits",
                "figure_chunk_at_3",
                "figure_chunk_at_3_hits",
                "page_mrr"
            ]
        );
        assert_eq!(serde_json::from_value::<Summary>(v).unwrap(), s);
    }
}
