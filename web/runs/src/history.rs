//! What the Runs view shows, without the browser: the runs of the team server's listing
//! (`GET api/runs`, contract §15.2) and the runs kept in this browser as one kind of row, the
//! filters and their query, and a metric's trend over one dataset's runs. Pure, so it has
//! native unit tests.

use figeval::stats::Interval;
use figeval::{render, Metric, Ranking, Report, Summary};
use serde::Deserialize;
use serde_json::{Map, Value};

/// Where the Runs view's runs come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The team server that serves the page (`figeval serve`).
    Server,
    /// This browser's IndexedDB: the last reports made or opened here.
    Kept,
}

/// One run of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Its id: the server's, or the kept report's key.
    pub id: String,
    /// Its name, shown as text.
    pub name: String,
    /// Its labels, shown as text (none for a kept report).
    pub labels: Vec<(String, String)>,
    /// When it was pushed or kept (RFC 3339 UTC).
    pub when: String,
    /// Its dataset key (`Report::dataset_key`).
    pub dataset: String,
    /// Its corpus.
    pub corpus: String,
    /// How many items it scored.
    pub n: u64,
    /// Its overall summary, when it could be read.
    pub summary: Option<Summary>,
    /// Where it comes from.
    pub source: Source,
}

/// A page of the server's listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The runs, newest first.
    pub runs: Vec<Run>,
    /// The cursor of the next page, if there is one.
    pub next: Option<String>,
}

#[derive(Deserialize)]
struct Listed {
    runs: Vec<ListedRun>,
    next: Option<String>,
}

#[derive(Deserialize)]
struct ListedRun {
    id: String,
    name: String,
    #[serde(default)]
    labels: Map<String, Value>,
    created_at: String,
    dataset: String,
    corpus_id: String,
    n: u64,
    summary: Value,
}

/// The labels of a JSON object, in its order, each value as text.
fn labels_of(m: &Map<String, Value>) -> Vec<(String, String)> {
    m.iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
        .collect()
}

/// A summary as the server or a kept report's facts state it; `None` when it is not one.
fn summary_of(v: &Value) -> Option<Summary> {
    v.as_object().and_then(|m| Summary::from_map(m).ok())
}

/// Reads a page of `GET api/runs`.
pub fn read_page(text: &str) -> Result<Page, String> {
    let listed: Listed = serde_json::from_str(text)
        .map_err(|e| format!("the server's list of runs could not be read: {e}"))?;
    Ok(Page {
        runs: listed
            .runs
            .into_iter()
            .map(|r| Run {
                summary: summary_of(&r.summary),
                id: r.id,
                name: r.name,
                labels: labels_of(&r.labels),
                when: r.created_at,
                dataset: r.dataset,
                corpus: r.corpus_id,
                n: r.n,
                source: Source::Server,
            })
            .collect(),
        next: listed.next,
    })
}

/// What `GET api/session` says (contract §15.6).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Session {
    /// Whether a session cookie (or a token) signed the page in.
    pub signed_in: bool,
    /// Whether the server is open (one person's machine: everyone is admin).
    pub open: bool,
    /// The token's name, when signed in.
    pub name: Option<String>,
    /// `read`, `push` or `admin`, when signed in or open.
    pub scope: Option<String>,
}

impl Session {
    /// Reads the answer to `GET api/session`: a figeval server's, or `None` (a static host).
    pub fn read(text: &str) -> Option<Session> {
        serde_json::from_str(text).ok()
    }

    /// Whether the page may list and read runs.
    pub fn may_read(&self) -> bool {
        matches!(self.scope.as_deref(), Some("read" | "admin"))
    }
}

/// What a kept report's facts are (stored beside it in IndexedDB once read): its dataset key,
/// corpus, size and overall summary, so the list never reads the reports again.
pub fn facts_of(r: &Report) -> Value {
    serde_json::json!({
        "dataset": r.dataset_key(),
        "corpus": r.corpus_id,
        "n": r.summary.n,
        "summary": r.summary.to_map(),
    })
}

/// A kept report as a row: its key, name, when it was kept (milliseconds since the epoch, as
/// RFC 3339 `when`) and its facts.
pub fn kept_run(id: String, name: String, when: String, facts: &Value) -> Run {
    let text = |k: &str| facts.get(k).and_then(Value::as_str).unwrap_or_default();
    Run {
        id,
        name,
        labels: Vec::new(),
        when,
        dataset: text("dataset").to_string(),
        corpus: text("corpus").to_string(),
        n: facts.get("n").and_then(Value::as_u64).unwrap_or(0),
        summary: facts.get("summary").and_then(summary_of),
        source: Source::Kept,
    }
}

/// The filters of the list (each empty: any).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filters {
    /// A dataset key.
    pub dataset: String,
    /// A corpus id.
    pub corpus: String,
    /// A label, `KEY:VALUE`.
    pub label: String,
}

/// `s` percent-encoded for a query value: unreserved characters as they are, every other byte
/// of its UTF-8 as `%XX`.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl Filters {
    /// The filters trimmed: what the user typed, without spaces around it.
    pub fn trimmed(dataset: &str, corpus: &str, label: &str) -> Filters {
        Filters {
            dataset: dataset.trim().to_string(),
            corpus: corpus.trim().to_string(),
            label: label.trim().to_string(),
        }
    }

    /// The query of `GET api/runs` for these filters, `limit` runs after `cursor`.
    pub fn query(&self, limit: u32, cursor: Option<&str>) -> String {
        let mut q = vec![format!("limit={limit}")];
        for (k, v) in [
            ("dataset", &self.dataset),
            ("corpus", &self.corpus),
            ("label", &self.label),
        ] {
            if !v.is_empty() {
                q.push(format!("{k}={}", encode(v)));
            }
        }
        if let Some(c) = cursor {
            q.push(format!("cursor={}", encode(c)));
        }
        format!("api/runs?{}", q.join("&"))
    }

    /// Whether a kept run passes the filters (a kept report has no labels, so a label filter
    /// passes none).
    pub fn keeps(&self, r: &Run) -> bool {
        (self.dataset.is_empty() || r.dataset == self.dataset)
            && (self.corpus.is_empty() || r.corpus == self.corpus)
            && self.label.is_empty()
    }
}

/// A metric a trend can follow: a rate, MRR or a ranking metric of the overall summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrendMetric {
    /// A hit rate.
    Rate(Metric),
    /// The mean reciprocal rank of the first hit.
    Mrr,
    /// nDCG or recall.
    Ranking(Ranking),
}

impl TrendMetric {
    /// Every metric, in the order the report shows them.
    pub fn all() -> Vec<TrendMetric> {
        let mut all: Vec<TrendMetric> = Metric::ALL.into_iter().map(TrendMetric::Rate).collect();
        all.push(TrendMetric::Mrr);
        all.extend(Ranking::ALL.into_iter().map(TrendMetric::Ranking));
        all
    }

    /// Its report key (`page_hit_at_3`, `page_mrr`, `ndcg_at_5`).
    pub fn key(self) -> &'static str {
        match self {
            TrendMetric::Rate(m) => m.name(),
            TrendMetric::Mrr => "page_mrr",
            TrendMetric::Ranking(r) => r.name(),
        }
    }

    /// Its label, as every table names it.
    pub fn label(self) -> &'static str {
        match self {
            TrendMetric::Rate(m) => render::metric_label(m),
            TrendMetric::Mrr => "MRR",
            TrendMetric::Ranking(r) => render::ranking_label(r),
        }
    }

    /// Its value in a summary, with its interval; `None` when the summary does not state it.
    pub fn of(self, s: &Summary) -> Option<(f64, Option<Interval>)> {
        match self {
            TrendMetric::Rate(m) => Some((s.rate(m), s.ci(m))),
            TrendMetric::Mrr => Some((s.page_mrr, s.page_mrr_ci)),
            TrendMetric::Ranking(r) => s.ranking(r).map(|v| (v, s.ranking_ci(r))),
        }
    }

    /// A value and its interval in words, as the report words them.
    pub fn words(self, s: &Summary) -> String {
        match self {
            TrendMetric::Rate(m) => render::rate_with_ci(s.rate(m), s.hits(m), s.n, s.ci(m)),
            _ => match self.of(s) {
                Some((v, ci)) => render::stated_with_ci(Some(v), ci),
                None => "not stated".to_string(),
            },
        }
    }
}

/// One point of a trend.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// The run's name.
    pub name: String,
    /// When it was pushed or kept.
    pub when: String,
    /// The metric's value.
    pub value: f64,
    /// Its interval, when stated.
    pub ci: Option<Interval>,
    /// The value and interval in words.
    pub words: String,
}

/// The trend of `metric` over `runs` (newest first, as listed) of `dataset`: one point per run
/// that states it, oldest first.
pub fn trend(runs: &[Run], dataset: &str, metric: TrendMetric) -> Vec<Point> {
    let mut points: Vec<Point> = runs
        .iter()
        .filter(|r| r.dataset == dataset)
        .filter_map(|r| {
            let s = r.summary.as_ref()?;
            let (value, ci) = metric.of(s)?;
            Some(Point {
                name: r.name.clone(),
                when: r.when.clone(),
                value,
                ci,
                words: metric.words(s),
            })
        })
        .collect();
    points.reverse();
    points
}

/// A dataset key as the list shows it: its first 8 digits.
pub fn short_key(key: &str) -> &str {
    key.get(..8).unwrap_or(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(pages: &[(u32, u32)]) -> Report {
        crate::compared::tests::scored(pages)
    }

    fn listing(reports: &[(&str, &Report)]) -> String {
        let runs: Vec<Value> = reports
            .iter()
            .enumerate()
            .map(|(i, (name, r))| {
                serde_json::json!({
                    "id": format!("id{i}"), "name": name, "labels": {"branch": "<main>"},
                    "created_at": format!("2026-12-0{}T10:00:00.000Z", 9 - i),
                    "dataset": r.dataset_key(), "corpus_id": r.corpus_id, "n": r.summary.n,
                    "summary": r.summary.to_map(), "pushed_by": null, "capture_bytes": null,
                    "url": format!("http://x/r/id{i}"),
                })
            })
            .collect();
        serde_json::json!({"runs": runs, "next": "123.id1"}).to_string()
    }

    /// What a listed summary shows: the stored numbers; a note that names one of the report's
    /// answers is the report's, not the list's (`Summary::from_map` reads only the fixed ones).
    fn listed(s: &Summary) -> Summary {
        let mut s = s.clone();
        s.ranking_note = s
            .ranking_note
            .filter(|n| figeval::summary::RANKING_NOTES.contains(&n.as_str()));
        s
    }

    #[test]
    fn a_page_of_the_servers_list_is_read_with_each_runs_summary_and_labels() {
        let (a, b) = (report(&[(4, 4)]), report(&[(9, 9)]));
        let page = read_page(&listing(&[("new", &a), ("<b>old</b>", &b)])).unwrap();
        assert_eq!(page.next.as_deref(), Some("123.id1"));
        assert_eq!(page.runs.len(), 2);
        assert_eq!(page.runs[1].name, "<b>old</b>", "markup is kept as text");
        assert_eq!(page.runs[0].labels, [("branch".into(), "<main>".into())]);
        assert_eq!(page.runs[0].summary, Some(listed(&a.summary)));
        assert!(read_page("{\"runs\": 3}")
            .unwrap_err()
            .starts_with("the server's list of runs could not be read"));
    }

    #[test]
    fn the_query_encodes_each_filter_and_leaves_out_empty_ones() {
        let f = Filters::trimmed(" abc ", "", "branch:feature/x y");
        assert_eq!(
            f.query(50, Some("17.id")),
            "api/runs?limit=50&dataset=abc&label=branch%3Afeature%2Fx%20y&cursor=17.id"
        );
        assert_eq!(Filters::default().query(100, None), "api/runs?limit=100");
    }

    #[test]
    fn a_kept_report_is_listed_from_its_facts_and_filtered_by_dataset_and_corpus() {
        let r = report(&[(4, 4)]);
        let run = kept_run("k".into(), "live run".into(), "t".into(), &facts_of(&r));
        assert_eq!(run.dataset, r.dataset_key());
        assert_eq!(run.summary, Some(listed(&r.summary)));
        assert!(Filters::trimmed(&r.dataset_key(), "demo", "").keeps(&run));
        assert!(!Filters::trimmed("other", "", "").keeps(&run));
        assert!(
            !Filters::trimmed("", "", "a:b").keeps(&run),
            "kept reports have no labels"
        );
    }

    #[test]
    fn a_trend_is_one_datasets_runs_oldest_first_with_their_intervals() {
        let (a, b) = (report(&[(4, 4)]), report(&[(9, 9)]));
        let page = read_page(&listing(&[("new", &a), ("old", &b)])).unwrap();
        let m = TrendMetric::Rate(Metric::PageHitAt3);
        let points = trend(&page.runs, &a.dataset_key(), m);
        assert_eq!(
            points.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
            ["old", "new"]
        );
        assert_eq!(points[1].value, a.summary.rate(Metric::PageHitAt3));
        assert_eq!(points[1].ci, a.summary.ci(Metric::PageHitAt3));
        assert_eq!(points[1].words, m.words(&a.summary));
        assert!(trend(&page.runs, "other", m).is_empty());
        // A metric a run does not state leaves it out.
        let ndcg10 = TrendMetric::Ranking(Ranking::NdcgAt10);
        assert_eq!(
            trend(&page.runs, &a.dataset_key(), ndcg10).len(),
            usize::from(a.summary.ranking(Ranking::NdcgAt10).is_some()) * 2
        );
    }

    #[test]
    fn a_session_says_what_the_page_may_do() {
        let s = Session::read(r#"{"signed_in":false,"open":true,"name":null,"scope":"admin"}"#)
            .unwrap();
        assert!(s.may_read());
        let push =
            Session::read(r#"{"signed_in":true,"open":false,"name":"ci","scope":"push"}"#).unwrap();
        assert!(!push.may_read());
        assert_eq!(Session::read("<html>"), None);
    }
}
