//! The report object (contract §5.2).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize, Serializer};

use crate::dataset::{strip_position, Group};
use crate::score::{ItemRecord, ScoreConfig};
use crate::summary::Summary;

/// The search's cache mode (contract §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheMode {
    /// The deployment's own default.
    Default,
    /// Skip the cache, so a before/after comparison never replays cached results.
    #[default]
    Bypass,
    /// Recompute and store.
    Refresh,
}

impl CacheMode {
    /// Every mode.
    pub const ALL: [CacheMode; 3] = [CacheMode::Default, CacheMode::Bypass, CacheMode::Refresh];

    /// The name sent in the request.
    pub fn name(self) -> &'static str {
        match self {
            CacheMode::Default => "default",
            CacheMode::Bypass => "bypass",
            CacheMode::Refresh => "refresh",
        }
    }
}

impl fmt::Display for CacheMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CacheMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CacheMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("cache mode must be one of default, bypass, refresh, not {s:?}"))
    }
}

/// What a summary is of: every scored item, or one group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Every scored item.
    Overall,
    /// The items of one group.
    Group(Group),
}

impl Scope {
    /// The name used in reports, comparisons and on the command line: `overall` or the group's.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Overall => "overall",
            Scope::Group(g) => g.name(),
        }
    }

    /// `overall`, then every group in report order.
    pub fn all() -> impl Iterator<Item = Scope> {
        std::iter::once(Scope::Overall).chain(Group::ALL.into_iter().map(Scope::Group))
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scope {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Scope::all().find(|sc| sc.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Scope::all().map(Scope::name).collect();
            format!(
                "{s:?} is neither overall nor a group; known: {}",
                names.join(", ")
            )
        })
    }
}

/// A scope serializes as its name.
impl Serialize for Scope {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The search parameters a set of responses was obtained with, as a live run records them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequestInfo {
    /// The deployment's base URL (`…/api`).
    pub base_url: Option<String>,
    /// The `top_k` sent.
    pub top_k: Option<u32>,
    /// The `cache_mode` sent.
    pub cache_mode: Option<CacheMode>,
}

/// How the report was produced. The shells fill it in: the scoring core has no clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunInfo {
    /// The figeval version that produced the report.
    pub tool_version: String,
    /// When the run started (RFC 3339, UTC), when known.
    pub started_at: Option<String>,
    /// How long the run took, in seconds.
    pub duration_s: f64,
    /// How many search requests were retried (live runs).
    pub retries: u64,
    /// `live`, or the name of the capture that was scored.
    pub source: String,
}

impl Default for RunInfo {
    fn default() -> Self {
        RunInfo {
            tool_version: crate::VERSION.to_string(),
            started_at: None,
            duration_s: 0.0,
            retries: 0,
            source: String::new(),
        }
    }
}

/// The settings a report states about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportHeader {
    /// The dataset's corpus.
    pub corpus_id: String,
    /// The deployment's base URL; `None` when scoring offline without a recorded one.
    pub base_url: Option<String>,
    /// The `top_k` asked for; `None` when unknown (offline, not recorded).
    pub top_k: Option<u32>,
    /// The cache mode asked for; `None` when unknown.
    pub cache_mode: Option<CacheMode>,
    /// The precise-hit span limit used.
    pub max_precise_span_pages: u32,
}

/// A report: settings, overall and per-group summaries, per-item records, run facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The dataset's corpus.
    pub corpus_id: String,
    /// The deployment's base URL, `null` for offline scoring without a recorded one.
    pub base_url: Option<String>,
    /// The `top_k` asked for, `null` when unknown.
    pub top_k: Option<u32>,
    /// The cache mode asked for, `null` when unknown.
    pub cache_mode: Option<CacheMode>,
    /// The precise-hit span limit used.
    pub max_precise_span_pages: u32,
    /// The overall summary; its keys sit at the top level of the report.
    #[serde(flatten)]
    pub summary: Summary,
    /// Summary per group, groups sorted by name; only groups that have items.
    pub by_group: BTreeMap<Group, Summary>,
    /// One record per scored item, in dataset order.
    pub per_item: Vec<ItemRecord>,
    /// Questions that had no response and were allowed to go unscored (left out of `n`).
    #[serde(default)]
    pub unscored: Vec<String>,
    /// How the report was produced.
    #[serde(default)]
    pub run: RunInfo,
}

impl Report {
    /// Builds a report from per-item records in dataset order.
    pub fn build(
        header: ReportHeader,
        per_item: Vec<ItemRecord>,
        unscored: Vec<String>,
        run: RunInfo,
    ) -> Report {
        let by_group = Group::ALL
            .into_iter()
            .filter(|&g| per_item.iter().any(|r| r.group == g))
            .map(|g| (g, Summary::of(per_item.iter().filter(|r| r.group == g))))
            .collect();
        Report {
            corpus_id: header.corpus_id,
            base_url: header.base_url,
            top_k: header.top_k,
            cache_mode: header.cache_mode,
            max_precise_span_pages: header.max_precise_span_pages,
            summary: Summary::of(&per_item),
            by_group,
            per_item,
            unscored,
            run,
        }
    }

    /// Reads a report from its JSON text; errors say line:column and what was wrong.
    pub fn parse(text: &str) -> Result<Report, String> {
        serde_json::from_str(text).map_err(|e| {
            format!(
                "line {}, column {}: not a figeval report: {}",
                e.line(),
                e.column(),
                strip_position(&e)
            )
        })
    }

    /// The report as indented JSON, as the command line prints it.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }

    /// The report's groups with their summaries, in report order.
    pub fn groups(&self) -> impl Iterator<Item = (Group, &Summary)> {
        self.by_group.iter().map(|(g, s)| (*g, s))
    }

    /// The summary of a scope; `None` for a group the report has no items of.
    pub fn summary_of(&self, scope: Scope) -> Option<&Summary> {
        match scope {
            Scope::Overall => Some(&self.summary),
            Scope::Group(g) => self.by_group.get(&g),
        }
    }

    /// The scoring settings the report states it was scored with.
    pub fn score_config(&self) -> ScoreConfig {
        ScoreConfig {
            max_precise_span_pages: self.max_precise_span_pages,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Dataset;
    use crate::response::Match;
    use crate::score::score_item;

    fn sample() -> Report {
        let d = Dataset::parse(
            r#"{"corpus_id":"c","items":[
            {"question":"a?","expected_pages":[1],"figure_ref":"F1","kind":"locate"},
            {"question":"b?","expected_pages":[2],"figure_ref":"F2","kind":"content"},
            {"question":"c?","expected_pages":[3],"figure_ref":"S1","kind":"locate","tags":["prose"]}]}"#,
        )
        .unwrap();
        let records = d
            .items
            .iter()
            .map(|it| score_item(it, &[Match::default()], ScoreConfig::default()))
            .collect();
        Report::build(
            ReportHeader {
                corpus_id: d.corpus_id.clone(),
                base_url: None,
                top_k: Some(5),
                cache_mode: Some(CacheMode::Bypass),
                max_precise_span_pages: 3,
            },
            records,
            vec![],
            RunInfo::default(),
        )
    }

    #[test]
    fn a_report_has_the_spec_keys_at_top_level() {
        let v = serde_json::to_value(sample()).unwrap();
        for key in [
            "corpus_id",
            "base_url",
            "top_k",
            "cache_mode",
            "max_precise_span_pages",
            "n",
            "page_hit_at_3",
            "page_hit_at_3_hits",
            "page_hit_at_5",
            "precise_page_hit_at_3",
            "figure_chunk_at_3",
            "page_mrr",
            "by_group",
            "per_item",
            "run",
        ] {
            assert!(v.get(key).is_some(), "missing {key}");
        }
        assert!(v["base_url"].is_null());
        let groups: Vec<&String> = v["by_group"].as_object().unwrap().keys().collect();
        assert_eq!(groups, ["content", "locate", "prose"]);
        assert_eq!(v["by_group"]["prose"]["n"], 1);
    }

    #[test]
    fn a_report_reads_back_identically() {
        let r = sample();
        assert_eq!(Report::parse(&r.to_json_pretty()).unwrap(), r);
    }

    #[test]
    fn a_broken_report_names_line_and_column() {
        let e = Report::parse("{\n \"corpus_id\": 3}").unwrap_err();
        assert!(e.starts_with("line 2, column "), "{e}");
    }

    #[test]
    fn scopes_are_overall_or_a_group_by_name() {
        assert_eq!("overall".parse::<Scope>(), Ok(Scope::Overall));
        assert_eq!("prose".parse::<Scope>(), Ok(Scope::Group(Group::Prose)));
        let e = "figures".parse::<Scope>().unwrap_err();
        assert!(e.contains("known: overall, content, locate, prose"), "{e}");
        assert_eq!(
            serde_json::to_string(&Scope::Group(Group::Locate)).unwrap(),
            "\"locate\""
        );
    }

    #[test]
    fn cache_modes_parse_by_name_only() {
        assert_eq!("bypass".parse::<CacheMode>().unwrap(), CacheMode::Bypass);
        assert!("BYPASS".parse::<CacheMode>().is_err());
    }
}
