//! The report object (contract §5.2).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize, Serializer};

use crate::dataset::Group;
use crate::request::{CacheMode, RequestInfo};
use crate::score::{ItemRecord, Metric, Ranking, ScoreConfig};
use crate::summary::{Depth, Summary, RANKING_NOTES};

pub mod key;

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

/// A name that is neither `overall` nor a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownScope {
    /// The name given.
    pub name: String,
}

impl fmt::Display for UnknownScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Scope::all().map(Scope::name).collect();
        write!(
            f,
            "{:?} is neither overall nor a group; the scopes are {}",
            self.name,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownScope {}

impl FromStr for Scope {
    type Err = UnknownScope;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Scope::all()
            .find(|sc| sc.name() == s)
            .ok_or_else(|| UnknownScope {
                name: s.to_string(),
            })
    }
}

/// A scope serializes as its name.
impl Serialize for Scope {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// Why a report's text is refused.
#[derive(Debug, Clone, PartialEq)]
pub enum ReportError {
    /// The text is not a report: where (line and column) and what was wrong.
    NotAReport(String),
    /// The report's summaries disagree with its own `per_item`: the first disagreement.
    Disagrees(Disagreement),
}

/// The first way a report's stated summaries disagree with the ones its own `per_item` gives
/// ([`Report::check`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Disagreement {
    /// A stated number is not the one `per_item` gives.
    Number {
        /// Where in the report, e.g. `by_group.locate.page_hit_at_3_hits` or `page_mrr`.
        path: String,
        /// The number the report states, as its JSON writes it (`0.5`, `12`, `null`).
        stated: String,
        /// The number its `per_item` gives, written the same way.
        computed: String,
    },
    /// `by_group` has no entry for a group `per_item` has items of.
    MissingGroup {
        /// The group.
        group: Group,
        /// How many of `per_item`'s records are of it.
        items: usize,
    },
    /// `by_group` states a group `per_item` has no item of.
    EmptyGroup {
        /// The group.
        group: Group,
    },
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Disagreement::Number {
                path,
                stated,
                computed,
            } => write!(f, "{path} is {stated} but per_item gives {computed}"),
            Disagreement::MissingGroup { group, items } => write!(
                f,
                "by_group has no {group} but per_item has {}",
                crate::describe::counted(
                    *items,
                    &format!("{group} item"),
                    &format!("{group} items")
                )
            ),
            Disagreement::EmptyGroup { group } => write!(
                f,
                "by_group.{group} is stated but per_item has no {group} item"
            ),
        }
    }
}

impl std::error::Error for Disagreement {}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::NotAReport(m) => f.write_str(m),
            ReportError::Disagrees(m) => write!(f, "the report disagrees with itself: {m}"),
        }
    }
}

impl std::error::Error for ReportError {}

/// The warning of a report whose numbers cannot be checked.
pub(crate) const UNCHECKED: &str =
    "it has no per-item records (per_item is empty or missing), so its numbers cannot be checked";

/// What a report is made of but its run facts, as a pairing ([`crate::Pairing`]) scored it:
/// the dataset's corpus, the settings the records were scored with, the search parameters
/// the responses were asked with, the records and what went unscored.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The dataset's corpus.
    pub corpus_id: String,
    /// The settings every record was scored with.
    pub config: ScoreConfig,
    /// The search parameters, when every response recorded the same ones (a live answer
    /// records the request it was asked with, as its capture line does).
    pub request: RequestInfo,
    /// One record per scored item, in dataset order.
    pub records: Vec<ItemRecord>,
    /// Questions with no response (only when missing responses were allowed).
    pub unscored: Vec<String>,
    /// Hits that cite no page, over every scored answer: counted when the answers were read
    /// through a connector other than the default (`None` for the default, whose reports
    /// stay as they were).
    pub hits_without_page: Option<u64>,
    /// The connector the answers were read through, when not the default: a preset's name, or
    /// its mapping's JSON text without header values ([`crate::Connector::record`]).
    pub connector: Option<String>,
}

impl Scored {
    /// States the `top_k` the searches asked for, for answers that recorded none (`figeval
    /// score --top-k`, and the page's field beside offline scoring): the report's depth is
    /// then known (contract §4.1). Refused when the answers recorded another `top_k`, or when
    /// an answer holds more matches than it.
    pub fn stating_top_k(mut self, top_k: u32) -> Result<Scored, StatedTopKError> {
        match self.request.top_k {
            Some(recorded) if recorded != top_k => {
                return Err(StatedTopKError::Recorded {
                    stated: top_k,
                    recorded,
                })
            }
            _ => {}
        }
        if let Some(r) = self.records.iter().find(|r| r.matches_returned > top_k) {
            return Err(StatedTopKError::MoreMatches {
                stated: top_k,
                question: r.question.clone(),
                matches: r.matches_returned,
            });
        }
        self.request.top_k = Some(top_k);
        Ok(self)
    }
}

/// Why a stated `top_k` is refused ([`Scored::stating_top_k`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatedTopKError {
    /// The answers recorded another `top_k`.
    Recorded {
        /// The `top_k` stated.
        stated: u32,
        /// The one the answers recorded.
        recorded: u32,
    },
    /// An answer holds more matches than the stated `top_k` asks for.
    MoreMatches {
        /// The `top_k` stated.
        stated: u32,
        /// The question of the first such answer.
        question: String,
        /// The matches it holds.
        matches: u32,
    },
}

impl fmt::Display for StatedTopKError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatedTopKError::Recorded { stated, recorded } => write!(
                f,
                "top_k {stated} is not the top_k {recorded} the answers record"
            ),
            StatedTopKError::MoreMatches {
                stated,
                question,
                matches,
            } => write!(
                f,
                "top_k {stated} is too few: the answer to {:?} holds {matches} matches",
                crate::describe::question(question)
            ),
        }
    }
}

impl std::error::Error for StatedTopKError {}

/// How the report was produced. The shells fill it in: the scoring core has no clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunInfo {
    /// The run's name, as compare, the matrix and the page call it: `figeval run|score
    /// --name`, else [`Report::build`] gives [`RunInfo::default_name`]. `None` only in a report
    /// written before names (it reads as it is). Read leniently: a name that is not a string
    /// is none, as `figeval serve` reads a pushed report's (contract §15.2).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_name"
    )]
    pub name: Option<String>,
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
    /// The connector the answers were read through, when not the default (contract §14.4): a
    /// preset's name, or its mapping's JSON text with every header value `[redacted]`.
    /// [`Report::build`] takes it from what was scored; a share link carries it with the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connector: Option<String>,
}

impl Default for RunInfo {
    fn default() -> Self {
        RunInfo {
            name: None,
            tool_version: crate::VERSION.to_string(),
            started_at: None,
            duration_s: 0.0,
            retries: 0,
            source: String::new(),
            connector: None,
        }
    }
}

/// `run.name` when it is a string, else none.
fn lenient_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(crate::response::LenientString::deserialize(d)?.0)
}

impl RunInfo {
    /// The name of a run nobody named: the deployment's host (with its port) when
    /// `base_url` is known, else `source` (a capture's file name, `stdin`, `pasted
    /// responses`); then the time the run started to the minute, in UTC, when known:
    /// `127.0.0.1:58012 2026-12-07 07:30 UTC`. A user name and password in the URL are left
    /// out.
    pub fn default_name(base_url: Option<&str>, source: &str, started_at: Option<&str>) -> String {
        let who = base_url.map_or(source, host);
        match started_at.map(minute) {
            Some(when) if who.is_empty() => when,
            Some(when) => format!("{who} {when}"),
            None if who.is_empty() => "unnamed run".to_string(),
            None => who.to_string(),
        }
    }
}

/// The host and port of an http(s) URL, without a user name and password.
fn host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    authority.rsplit_once('@').map_or(authority, |(_, h)| h)
}

/// An RFC 3339 time in UTC (`2026-12-07T07:30:12Z`) to the minute: `2026-12-07 07:30 UTC`;
/// any other text as it is.
fn minute(rfc3339: &str) -> String {
    let b = rfc3339.as_bytes();
    let shaped = b.len() >= 17 && b[10] == b'T' && b[13] == b':' && rfc3339.ends_with('Z');
    if shaped && rfc3339.is_char_boundary(16) {
        format!("{} {} UTC", &rfc3339[..10], &rfc3339[11..16])
    } else {
        rfc3339.to_string()
    }
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
    /// Hits that cited no page, over every scored answer; stated when the answers were read
    /// through a connector other than the default (contract §14.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hits_without_page: Option<u64>,
    /// The provenance audit, when the run was given the PDF (contract §14.8): how many hits'
    /// content is printed on the pages they cite. Read and written by builds with the
    /// `connectors` feature (the command line); the page ignores it.
    #[cfg(feature = "connectors")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<crate::provenance::Provenance>,
    /// The overall summary; its keys sit at the top level of the report.
    #[serde(flatten)]
    pub summary: Summary,
    /// Summary per group, groups sorted by name; only groups that have items.
    pub by_group: BTreeMap<Group, Summary>,
    /// One record per scored item, in dataset order. A report read without it (or with it
    /// empty) opens, but its numbers cannot be checked: see [`Report::unchecked_warning`].
    #[serde(default)]
    pub per_item: Vec<ItemRecord>,
    /// Questions that had no response and were allowed to go unscored (left out of `n`).
    #[serde(default)]
    pub unscored: Vec<String>,
    /// How the report was produced.
    #[serde(default)]
    pub run: RunInfo,
}

impl Report {
    /// The one way a report is made, by the command line's live runs and `figeval score` and
    /// by the page's live runs and offline scoring alike: its header is what `scored` was
    /// scored with (the corpus, the search parameters the responses recorded, the precise-hit
    /// span), its summaries are computed from its records, and `run` adds how it was produced.
    pub fn build(scored: Scored, mut run: RunInfo) -> Report {
        let Scored {
            corpus_id,
            config,
            request,
            records: per_item,
            unscored,
            hits_without_page,
            connector,
        } = scored;
        run.connector = connector;
        if run.name.is_none() {
            let name = RunInfo::default_name(
                request.base_url.as_deref(),
                &run.source,
                run.started_at.as_deref(),
            );
            run.name = Some(name);
        }
        // Inserted one by one: collecting into a map would sort (and link a sort) first.
        let top_k = request.top_k;
        let depth = Depth::of(top_k, &per_item);
        let mut by_group = BTreeMap::new();
        for g in Group::ALL {
            if per_item.iter().any(|r| r.group == g) {
                let items = per_item.iter().filter(|r| r.group == g);
                by_group.insert(g, Summary::at_depth(items, &depth));
            }
        }
        Report {
            corpus_id,
            base_url: request.base_url,
            top_k,
            cache_mode: request.cache_mode,
            max_precise_span_pages: config.max_precise_span_pages,
            hits_without_page,
            #[cfg(feature = "connectors")]
            provenance: None,
            summary: Summary::at_depth(&per_item, &depth),
            by_group,
            per_item,
            unscored,
            run,
        }
    }

    /// Reads a report from its JSON text and checks it against itself ([`Report::check`]).
    ///
    /// A text that is not a report is refused with its line:column and what was wrong; a report
    /// whose summaries disagree with its own `per_item` is refused naming the first
    /// disagreement.
    pub fn parse(text: &str) -> Result<Report, ReportError> {
        let mut report: Report = serde_json::from_str(text).map_err(|e| {
            let what = match e.classify() {
                serde_json::error::Category::Data => "not a figeval report",
                _ => "not valid JSON",
            };
            ReportError::NotAReport(format!(
                "line {}, column {}: {what}: {}",
                e.line(),
                e.column(),
                crate::describe::json_problem(&e)
            ))
        })?;
        report.check_and_restate().map_err(ReportError::Disagrees)?;
        Ok(report)
    }

    /// [`Report::check`], then states the `ranking_note`s its own records give: one that names
    /// an answer is not a fixed text, so it is not read from a file. How every report read
    /// back is opened (a file, a share link of one report or of a comparison).
    pub(crate) fn check_and_restate(&mut self) -> Result<(), Disagreement> {
        let mut notes = Vec::new();
        self.check_with(|group, computed| notes.push((group, computed.ranking_note)))?;
        for (group, note) in notes {
            let summary = match group {
                None => Some(&mut self.summary),
                Some(g) => self.by_group.get_mut(&g),
            };
            if let Some(s) = summary {
                s.ranking_note = note;
            }
        }
        Ok(())
    }

    /// How deep every answer of the report can be read (contract §4.1): its `top_k`, else
    /// what its records say. A report that states the note of an unknown `top_k` was written
    /// before depths were read from the answers, and is checked as it was written.
    fn depth(&self) -> Depth {
        let before_read_depths =
            self.top_k.is_none() && self.summary.ranking_note.as_deref() == Some(RANKING_NOTES[2]);
        if before_read_depths {
            Depth::Unknown
        } else {
            Depth::of(self.top_k, &self.per_item)
        }
    }

    /// Checks the stated summaries (`n`, each metric's hits and rate, `page_mrr`; overall and
    /// every group) against the ones `per_item` gives. The error names the first disagreement, e.g.
    /// `by_group.locate.page_hit_at_3_hits is 999 but per_item gives 12`.
    ///
    /// A report without per-item records passes: there is nothing to check its numbers
    /// against ([`Report::unchecked_warning`] says so).
    pub fn check(&self) -> Result<(), Disagreement> {
        self.check_with(|_, _| {})
    }

    /// [`Report::check`], handing each summary `per_item` gives (`None` for the overall one,
    /// then each group's) to `computed`.
    fn check_with(
        &self,
        mut computed: impl FnMut(Option<Group>, Summary),
    ) -> Result<(), Disagreement> {
        if self.per_item.is_empty() {
            return Ok(());
        }
        let depth = self.depth();
        let actual = Summary::at_depth(&self.per_item, &depth);
        if let Some(d) = summary_disagreement("", &self.summary, &actual) {
            return Err(d);
        }
        computed(None, actual);
        for g in Group::ALL {
            let items = self.per_item.iter().filter(|r| r.group == g);
            let k = items.clone().count();
            match self.by_group.get(&g) {
                None if k > 0 => return Err(Disagreement::MissingGroup { group: g, items: k }),
                None => {}
                Some(_) if k == 0 => return Err(Disagreement::EmptyGroup { group: g }),
                Some(stated) => {
                    let prefix = format!("by_group.{g}.");
                    let actual = Summary::at_depth(items, &depth);
                    if let Some(d) = summary_disagreement(&prefix, stated, &actual) {
                        return Err(d);
                    }
                    computed(Some(g), actual);
                }
            }
        }
        Ok(())
    }

    /// The warning of a report whose numbers cannot be checked: it states summaries but has
    /// no per-item records. `None` when [`Report::check`] had something to check against (or
    /// the report scored nothing).
    pub fn unchecked_warning(&self) -> Option<&'static str> {
        let states_something = self.summary.n > 0 || !self.by_group.is_empty();
        (self.per_item.is_empty() && states_something).then_some(UNCHECKED)
    }

    /// The key of the dataset this report was scored on ([`key::dataset_key`]): runs of the
    /// same items share it, whatever the dataset file was called.
    pub fn dataset_key(&self) -> String {
        key::dataset_key(&self.per_item, &self.unscored)
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

    /// The name to show for this report: its `run.name`, else `fallback` (the file it was read
    /// from), else the name its facts give ([`RunInfo::default_name`]) — a report from before
    /// names states none.
    pub fn shown_name(&self, fallback: Option<&str>) -> String {
        match (&self.run.name, fallback) {
            (Some(name), _) => name.clone(),
            (None, Some(file)) => file.to_string(),
            (None, None) => RunInfo::default_name(
                self.base_url.as_deref(),
                &self.run.source,
                self.run.started_at.as_deref(),
            ),
        }
    }

    /// The scoring settings the report states it was scored with.
    pub fn score_config(&self) -> ScoreConfig {
        ScoreConfig {
            max_precise_span_pages: self.max_precise_span_pages,
        }
    }
}

/// The first key of `stated` that differs from `actual`, its path `{prefix}{key}`: `n`, then
/// each metric's hits and rate, then `page_mrr`, then each ranking metric (`null` when not
/// stated).
fn summary_disagreement(prefix: &str, stated: &Summary, actual: &Summary) -> Option<Disagreement> {
    // Compared as the report's JSON writes them: rates with the same text are the same.
    let differ = |key: &str, s: String, a: String| {
        (s != a).then(|| Disagreement::Number {
            path: format!("{prefix}{key}"),
            stated: s,
            computed: a,
        })
    };
    differ("n", stated.n.to_string(), actual.n.to_string())
        .or_else(|| {
            Metric::ALL.into_iter().find_map(|m| {
                differ(
                    m.hits_name(),
                    stated.hits(m).to_string(),
                    actual.hits(m).to_string(),
                )
                .or_else(|| differ(m.name(), number(stated.rate(m)), number(actual.rate(m))))
            })
        })
        .or_else(|| differ("page_mrr", number(stated.page_mrr), number(actual.page_mrr)))
        .or_else(|| {
            Ranking::ALL.into_iter().find_map(|m| {
                let value = |s: &Summary| s.ranking(m).map_or_else(|| "null".into(), number);
                differ(m.name(), value(stated), value(actual))
            })
        })
}

/// A rate as the report's JSON writes it.
fn number(x: f64) -> String {
    serde_json::Value::from(x).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::tests::{record, report};
    use crate::dataset::Dataset;
    use crate::response::Match;
    use crate::score::score_item;
    use crate::summary::RANKING_NOTES;
    use serde_json::Value;

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
            Scored {
                corpus_id: d.corpus_id.clone(),
                config: ScoreConfig::default(),
                request: RequestInfo {
                    base_url: None,
                    top_k: Some(5),
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
        let e = Report::parse("{\n \"corpus_id\": 3}")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("line 2, column "), "{e}");
    }

    /// 33 items as the Octave dataset groups them (13 locate, 13 content, 7 prose), 31 hits.
    fn thirty_three() -> Value {
        let records = (0..33)
            .map(|i| {
                let group = match i {
                    26.. => Group::Prose,
                    _ if i % 2 == 0 => Group::Locate,
                    _ => Group::Content,
                };
                record(&format!("q{i}?"), group, i >= 2)
            })
            .collect();
        let mut v = serde_json::to_value(report(records, 5)).unwrap();
        // As a figeval before intervals wrote it (the `_ci` keys are checked on their own).
        let strip = |m: &mut Value| {
            m.as_object_mut()
                .unwrap()
                .retain(|k, _| !k.ends_with("_ci"))
        };
        strip(&mut v);
        for g in v["by_group"].as_object_mut().unwrap().values_mut() {
            strip(g);
        }
        v
    }

    fn disagreement(v: &Value) -> Disagreement {
        match Report::parse(&v.to_string()) {
            Err(ReportError::Disagrees(d)) => d,
            other => panic!("not refused as disagreeing: {other:?}"),
        }
    }

    fn refusal(v: &Value) -> String {
        disagreement(v).to_string()
    }

    #[test]
    fn a_disagreement_names_its_path_and_both_values() {
        let mut v = thirty_three();
        v["by_group"]["locate"]["page_hit_at_3_hits"] = 999.into();
        // The untouched report agrees with itself: its number is the one per_item gives.
        let computed = thirty_three()["by_group"]["locate"]["page_hit_at_3_hits"]
            .as_u64()
            .unwrap();
        assert_eq!(
            disagreement(&v),
            Disagreement::Number {
                path: "by_group.locate.page_hit_at_3_hits".into(),
                stated: 999.to_string(),
                computed: computed.to_string(),
            }
        );
        let mut v = thirty_three();
        v["page_mrr"] = 0.5.into();
        let Disagreement::Number {
            path,
            stated,
            computed,
        } = disagreement(&v)
        else {
            panic!("not a number's disagreement")
        };
        assert_eq!((path.as_str(), stated), ("page_mrr", "0.5".to_string()));
        assert_eq!(computed.to_string(), thirty_three()["page_mrr"].to_string());
    }

    #[test]
    fn each_disagreement_says_what_differs() {
        let cases = [
            (
                Disagreement::Number {
                    path: "by_group.prose.page_hit_at_3".into(),
                    stated: "1.0".to_string(),
                    computed: "0.4286".to_string(),
                },
                "by_group.prose.page_hit_at_3 is 1.0 but per_item gives 0.4286",
            ),
            (
                Disagreement::Number {
                    path: "n".into(),
                    stated: 32.to_string(),
                    computed: 33.to_string(),
                },
                "n is 32 but per_item gives 33",
            ),
            (
                Disagreement::MissingGroup {
                    group: Group::Prose,
                    items: 7,
                },
                "by_group has no prose but per_item has 7 prose items",
            ),
            (
                Disagreement::EmptyGroup {
                    group: Group::Content,
                },
                "by_group.content is stated but per_item has no content item",
            ),
        ];
        for (d, message) in cases {
            assert_eq!(d.to_string(), message, "{d:?}");
        }
    }

    #[test]
    fn a_report_whose_hit_count_its_items_contradict_is_refused_naming_it() {
        let mut v = thirty_three();
        assert_eq!(v["n"], 33);
        assert!(
            Report::parse(&v.to_string()).is_ok(),
            "the untouched report is accepted"
        );
        v["page_hit_at_3_hits"] = 999.into();
        v["page_hit_at_3"] = 0.1.into();
        assert_eq!(
            refusal(&v),
            "page_hit_at_3_hits is 999 but per_item gives 31"
        );
        let e = Report::parse(&v.to_string()).unwrap_err().to_string();
        assert_eq!(
            e,
            "the report disagrees with itself: page_hit_at_3_hits is 999 but per_item gives 31"
        );
    }

    #[test]
    fn every_number_of_every_group_is_checked() {
        let base = thirty_three();
        let locate_hits = base["by_group"]["locate"]["page_hit_at_3_hits"].clone();
        let cases: [(&[&str], Value, String); 6] = [
            (&["n"], 32.into(), "n is 32 but per_item gives 33".into()),
            (
                &["page_mrr"],
                0.5.into(),
                format!("page_mrr is 0.5 but per_item gives {}", base["page_mrr"]),
            ),
            (
                &["figure_chunk_at_3"],
                0.0303.into(),
                "figure_chunk_at_3 is 0.0303 but per_item gives 0.0".into(),
            ),
            (
                &["by_group", "locate", "page_hit_at_3_hits"],
                999.into(),
                format!(
                    "by_group.locate.page_hit_at_3_hits is 999 but per_item gives {locate_hits}"
                ),
            ),
            (
                &["by_group", "prose", "n"],
                8.into(),
                "by_group.prose.n is 8 but per_item gives 7".into(),
            ),
            (
                &["by_group", "content", "precise_page_hit_at_3"],
                1.0.into(),
                format!(
                    "by_group.content.precise_page_hit_at_3 is 1.0 but per_item gives {}",
                    base["by_group"]["content"]["precise_page_hit_at_3"]
                ),
            ),
        ];
        for (path, value, expected) in cases {
            let mut v = base.clone();
            let mut at = &mut v;
            for key in path {
                at = &mut at[*key];
            }
            *at = value;
            assert_eq!(refusal(&v), expected, "{path:?}");
        }
    }

    #[test]
    fn a_group_missing_or_invented_is_refused() {
        let mut v = thirty_three();
        v["by_group"].as_object_mut().unwrap().remove("prose");
        assert_eq!(
            refusal(&v),
            "by_group has no prose but per_item has 7 prose items"
        );
        let mut v = thirty_three();
        let prose = v["by_group"]["prose"].clone();
        v["by_group"].as_object_mut().unwrap().remove("prose");
        for r in v["per_item"].as_array_mut().unwrap() {
            if r["group"] == "prose" {
                r["group"] = "locate".into();
            }
        }
        v["by_group"]["prose"] = prose;
        assert!(
            refusal(&v).starts_with("by_group.locate.n is 13 but per_item gives 20"),
            "{}",
            refusal(&v)
        );
    }

    #[test]
    fn a_report_without_per_item_opens_with_a_warning_that_it_cannot_be_checked() {
        let mut v = thirty_three();
        v["page_hit_at_3_hits"] = 999.into();
        v.as_object_mut().unwrap().remove("per_item");
        let r = Report::parse(&v.to_string()).unwrap();
        assert_eq!(
            r.summary.hits(Metric::PageHitAt3),
            999,
            "the stated numbers are kept"
        );
        assert_eq!(r.unchecked_warning(), Some(UNCHECKED));
        v["per_item"] = serde_json::json!([]);
        let r = Report::parse(&v.to_string()).unwrap();
        assert!(r.unchecked_warning().unwrap().contains("cannot be checked"));
        let checked = Report::parse(&thirty_three().to_string()).unwrap();
        assert_eq!(checked.unchecked_warning(), None);
        let mut empty = report(vec![], 5);
        empty.unscored = vec!["q?".into()];
        assert_eq!(
            empty.unchecked_warning(),
            None,
            "a report that states nothing needs no check"
        );
    }

    #[test]
    fn the_at_10_metrics_are_null_with_the_reason_when_top_k_is_below_10() {
        let five =
            serde_json::to_value(report(vec![record("a?", Group::Locate, true)], 5)).unwrap();
        assert_eq!(five["ndcg_at_5"], 1.0);
        assert_eq!(five["recall_at_5"], 1.0);
        for key in [
            "ndcg_at_10",
            "ndcg_at_10_ci",
            "recall_at_10",
            "recall_at_10_ci",
        ] {
            assert!(five[key].is_null(), "{key}");
            assert!(five["by_group"]["locate"][key].is_null(), "{key}");
        }
        assert_eq!(five["ranking_note"], RANKING_NOTES[0]);
        assert_eq!(five["by_group"]["locate"]["ranking_note"], RANKING_NOTES[0]);
        let ten = report(vec![record("a?", Group::Locate, true)], 10);
        assert_eq!(ten.summary.ranking(Ranking::NdcgAt10), Some(1.0));
        assert!(serde_json::to_value(&ten).unwrap()["ranking_note"].is_null());
        let mut unknown = report(vec![record("a?", Group::Locate, true)], 10);
        unknown.top_k = None;
        // Stated as a top_k 10 report states them: for an unknown top_k the answer, which
        // holds 5 matches, gives no metric at 10, and the check refuses them.
        assert_eq!(
            unknown.check().unwrap_err(),
            Disagreement::Number {
                path: "ndcg_at_10".into(),
                stated: "1.0".to_string(),
                computed: "null".to_string(),
            }
        );
        assert_eq!(
            unknown.check().unwrap_err().to_string(),
            "ndcg_at_10 is 1.0 but per_item gives null"
        );
        let read = Report::parse(&five.to_string()).unwrap();
        assert_eq!(
            read.summary.ranking_note.as_deref(),
            Some(RANKING_NOTES[0]),
            "read back as stated"
        );
    }

    #[test]
    fn a_report_of_unknown_top_k_states_what_its_answers_give_and_an_older_one_reads_as_written() {
        let mut r = report(vec![record("a?", Group::Locate, true)], 5);
        r.top_k = None;
        let built = Report::build(
            Scored {
                corpus_id: r.corpus_id.clone(),
                config: r.score_config(),
                request: RequestInfo::default(),
                records: r.per_item.clone(),
                unscored: vec![],
                hits_without_page: None,
                connector: None,
            },
            RunInfo::default(),
        );
        assert_eq!(built.summary.ranking(Ranking::NdcgAt5), Some(1.0));
        assert_eq!(built.summary.ranking(Ranking::NdcgAt10), None);
        let note = built.summary.ranking_note.clone().unwrap();
        assert!(
            note.contains("the answer to \"a?\" holds 5 matches"),
            "{note}"
        );
        let read = Report::parse(&built.to_json_pretty()).unwrap();
        assert_eq!(read.summary.ranking_note.as_deref(), Some(note.as_str()));
        assert_eq!(
            read.by_group[&Group::Locate].ranking_note.as_deref(),
            Some(note.as_str())
        );
        // Written before depths were read from answers: every ranking metric null, with the
        // note of an unknown top_k. It still reads, and states what it stated.
        let mut older: Value = serde_json::from_str(&built.to_json_pretty()).unwrap();
        let state_none = |s: &mut Value| {
            for m in Ranking::ALL {
                s[m.name()] = Value::Null;
                s[m.ci_name()] = Value::Null;
            }
            s["ranking_note"] = RANKING_NOTES[2].into();
        };
        state_none(&mut older);
        state_none(&mut older["by_group"]["locate"]);
        let read = Report::parse(&older.to_string()).unwrap();
        assert_eq!(read.summary.ranking(Ranking::NdcgAt5), None);
        assert_eq!(read.summary.ranking_note.as_deref(), Some(RANKING_NOTES[2]));
    }

    #[test]
    fn a_stated_top_k_gives_the_depth_unless_the_answers_say_otherwise() {
        let r = report(vec![record("a?", Group::Locate, true)], 5);
        let scored = |top_k: Option<u32>| Scored {
            corpus_id: r.corpus_id.clone(),
            config: r.score_config(),
            request: RequestInfo {
                top_k,
                ..RequestInfo::default()
            },
            records: r.per_item.clone(),
            unscored: vec![],
            hits_without_page: None,
            connector: None,
        };
        let stated = scored(None).stating_top_k(10).unwrap();
        assert_eq!(stated.request.top_k, Some(10));
        let built = Report::build(stated, RunInfo::default());
        assert_eq!(built.top_k, Some(10));
        assert_eq!(
            built.summary.ranking(Ranking::NdcgAt10),
            Some(1.0),
            "the answer holds 5 matches of the 10 asked for: the deployment had no more"
        );
        assert!(scored(Some(10)).stating_top_k(10).is_ok());
        assert_eq!(
            scored(Some(5)).stating_top_k(10).unwrap_err().to_string(),
            "top_k 10 is not the top_k 5 the answers record"
        );
        assert_eq!(
            scored(None).stating_top_k(4).unwrap_err().to_string(),
            "top_k 4 is too few: the answer to \"a?\" holds 5 matches"
        );
    }

    #[test]
    fn a_report_from_before_the_ranking_metrics_reads_with_them_null() {
        let mut v = thirty_three();
        for r in v["per_item"].as_array_mut().unwrap() {
            r.as_object_mut().unwrap().remove("expected_page_ranks");
        }
        let ranking = |k: &String| {
            ["ndcg", "recall", "ranking"]
                .iter()
                .any(|p| k.starts_with(p))
        };
        v.as_object_mut().unwrap().retain(|k, _| !ranking(k));
        for g in v["by_group"].as_object_mut().unwrap().values_mut() {
            g.as_object_mut().unwrap().retain(|k, _| !ranking(k));
        }
        let r = Report::parse(&v.to_string()).unwrap();
        assert!(Ranking::ALL.iter().all(|&m| r.summary.ranking(m).is_none()));
        assert_eq!(
            r.summary.ranking_note.as_deref(),
            Some(RANKING_NOTES[3]),
            "the note its records give, though it stated none"
        );
        // A stated ranking metric the records cannot give is refused.
        v["recall_at_5"] = 0.5.into();
        assert_eq!(refusal(&v), "recall_at_5 is 0.5 but per_item gives null");
    }

    #[test]
    fn a_ranking_metric_its_items_contradict_is_refused_naming_it() {
        let mut v = thirty_three();
        assert_eq!(
            v["ndcg_at_5"], v["page_mrr"],
            "one page found at rank 1 or not at all"
        );
        v["by_group"]["prose"]["recall_at_5"] = 0.1.into();
        assert_eq!(
            refusal(&v),
            "by_group.prose.recall_at_5 is 0.1 but per_item gives 1.0"
        );
    }

    #[test]
    fn an_unnamed_run_is_named_after_its_host_and_the_minute_it_started() {
        let at = Some("2026-12-07T07:30:12Z");
        assert_eq!(
            RunInfo::default_name(Some("http://127.0.0.1:58012/api"), "live", at),
            "127.0.0.1:58012 2026-12-07 07:30 UTC"
        );
        assert_eq!(
            RunInfo::default_name(Some("https://user:pw@search.example.com"), "live", at),
            "search.example.com 2026-12-07 07:30 UTC",
            "a password in the URL never reaches a name"
        );
        assert_eq!(
            RunInfo::default_name(None, "run.capture.jsonl", at),
            "run.capture.jsonl 2026-12-07 07:30 UTC"
        );
        assert_eq!(RunInfo::default_name(None, "stdin", None), "stdin");
        assert_eq!(
            RunInfo::default_name(None, "", Some("yesterday")),
            "yesterday"
        );
    }

    #[test]
    fn every_built_report_carries_a_name_and_a_given_one_is_kept() {
        let built = sample();
        assert_eq!(
            built.run.name.as_deref(),
            Some("unnamed run"),
            "no host, source or time"
        );
        let scored = Scored {
            corpus_id: built.corpus_id.clone(),
            config: built.score_config(),
            request: RequestInfo {
                base_url: Some("http://h:9/api".into()),
                ..RequestInfo::default()
            },
            records: built.per_item.clone(),
            unscored: vec![],
            hits_without_page: None,
            connector: None,
        };
        let run = RunInfo {
            started_at: Some("2026-01-02T03:04:05Z".into()),
            ..RunInfo::default()
        };
        let r = Report::build(scored.clone(), run.clone());
        assert_eq!(r.run.name.as_deref(), Some("h:9 2026-01-02 03:04 UTC"));
        let named = RunInfo {
            name: Some("figures on".into()),
            ..run
        };
        let r = Report::build(scored, named);
        assert_eq!(r.run.name.as_deref(), Some("figures on"));
        let back = Report::parse(&r.to_json_pretty()).unwrap();
        assert_eq!(back.run.name.as_deref(), Some("figures on"));
        assert_eq!(back.shown_name(Some("after.json")), "figures on");
    }

    #[test]
    fn a_report_from_before_names_reads_without_one_and_shows_its_file_or_its_facts() {
        let mut v: Value = serde_json::from_str(&sample().to_json_pretty()).unwrap();
        v["run"].as_object_mut().unwrap().remove("name");
        v["base_url"] = "http://10.0.0.2:8000/api".into();
        v["run"]["started_at"] = "2026-03-01T10:00:59Z".into();
        let old = Report::parse(&v.to_string()).unwrap();
        assert_eq!(old.run.name, None, "read as it is");
        assert!(
            !old.to_json_pretty().contains("\"name\""),
            "and written back without one"
        );
        assert_eq!(old.shown_name(Some("before.json")), "before.json");
        assert_eq!(old.shown_name(None), "10.0.0.2:8000 2026-03-01 10:00 UTC");
        v["run"]["name"] = 3.into();
        let odd = Report::parse(&v.to_string()).unwrap();
        assert_eq!(odd.run.name, None, "a name that is not a string is none");
    }

    #[test]
    fn scopes_are_overall_or_a_group_by_name() {
        assert_eq!("overall".parse::<Scope>(), Ok(Scope::Overall));
        assert_eq!("prose".parse::<Scope>(), Ok(Scope::Group(Group::Prose)));
        let e = "figures".parse::<Scope>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"figures\" is neither overall nor a group; the scopes are overall, content, locate, \
             prose"
        );
        assert_eq!(
            serde_json::to_string(&Scope::Group(Group::Locate)).unwrap(),
            "\"locate\""
        );
    }
}
