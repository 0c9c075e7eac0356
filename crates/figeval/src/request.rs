//! The search request of a live run (contract §2), and the capture envelope that records it.
//! The command line and the browser app both send and record searches through this.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The smallest `top_k` accepted.
pub const MIN_TOP_K: u32 = 5;

/// Why `top_k` may not be below [`MIN_TOP_K`].
pub const TOP_K_REASON: &str =
    "page_hit_at_5 reads rank 5, and a smaller window would silently make it a copy of page_hit_at_3";

/// `Err` with the reason when `top_k` is below [`MIN_TOP_K`].
pub fn check_top_k(top_k: u32) -> Result<(), String> {
    if top_k < MIN_TOP_K {
        Err(format!(
            "top_k must be at least {MIN_TOP_K}, not {top_k}: {TOP_K_REASON}"
        ))
    } else {
        Ok(())
    }
}

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

/// The search parameters a report states its responses were asked with, as a live run records
/// them; each `None` when not known (responses that did not record them, or disagreed).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequestInfo {
    /// The deployment's base URL (`…/api`).
    pub base_url: Option<String>,
    /// The `top_k` sent.
    pub top_k: Option<u32>,
    /// The `cache_mode` sent.
    pub cache_mode: Option<CacheMode>,
}

/// The parameters of a live run's searches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest<'a> {
    /// The deployment's API base, without a trailing `/`.
    pub base_url: &'a str,
    /// The dataset's corpus, sent as `repo_id`.
    pub corpus_id: &'a str,
    /// Matches asked for.
    pub top_k: u32,
    /// The cache mode sent.
    pub cache_mode: CacheMode,
}

impl SearchRequest<'_> {
    /// The search endpoint: `{base_url}/search`.
    pub fn url(&self) -> String {
        format!("{}/search", self.base_url.trim_end_matches('/'))
    }

    /// The request body: exactly `{"query", "repo_id", "top_k", "cache_mode"}`.
    pub fn body(&self, question: &str) -> String {
        serde_json::json!({
            "query": question,
            "repo_id": self.corpus_id,
            "top_k": self.top_k,
            "cache_mode": self.cache_mode.name(),
        })
        .to_string()
    }

    /// A capture line (without its newline):
    /// `{"question", "request": {"base_url", "top_k", "cache_mode"}, "response"}`.
    ///
    /// `body` must be valid JSON. A body on one line is embedded as received; one with line
    /// breaks is re-serialized compactly, so the capture stays one search per line.
    pub fn envelope_line(&self, question: &str, body: &str) -> String {
        let request = serde_json::json!({
            "base_url": self.base_url,
            "top_k": self.top_k,
            "cache_mode": self.cache_mode.name(),
        });
        let trimmed = body.trim();
        let response = if trimmed.contains(['\n', '\r']) {
            serde_json::from_str::<serde_json::Value>(trimmed)
                .map(|v| v.to_string())
                .unwrap_or_else(|_| trimmed.to_string())
        } else {
            trimmed.to_string()
        };
        format!(
            "{{\"question\":{},\"request\":{request},\"response\":{response}}}",
            serde_json::Value::from(question)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{CaptureReader, Pairing};
    use crate::dataset::Dataset;
    use crate::score::ScoreConfig;

    fn request() -> SearchRequest<'static> {
        SearchRequest {
            base_url: "http://h/api",
            corpus_id: "octave-manual",
            top_k: 7,
            cache_mode: CacheMode::Refresh,
        }
    }

    #[test]
    fn the_request_body_has_exactly_the_contract_keys() {
        let v: serde_json::Value = serde_json::from_str(&request().body("Which <b>?")).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"query": "Which <b>?", "repo_id": "octave-manual", "top_k": 7, "cache_mode": "refresh"})
        );
        assert_eq!(request().url(), "http://h/api/search");
    }

    #[test]
    fn a_pretty_printed_body_is_captured_on_one_line_and_pairs_back() {
        let line = request().envelope_line("q \"x\"?", "{\n  \"matches\": []\n}\n");
        assert!(!line.contains('\n'));
        assert!(line.ends_with("\"response\":{\"matches\":[]}}"), "{line}");
        let d = Dataset::parse(r#"{"corpus_id":"c","items":[{"question":"q \"x\"?","expected_pages":[1],"figure_ref":"F","kind":"locate"}]}"#).unwrap();
        let mut r = CaptureReader::new(Pairing::new(&d, ScoreConfig::default()));
        r.feed_line(&line);
        let s = r.end().pairing.finish(false).unwrap();
        assert_eq!(s.request.top_k, Some(7));
        assert_eq!(s.request.cache_mode, Some(CacheMode::Refresh));
    }

    #[test]
    fn top_k_below_five_is_refused_with_the_reason() {
        assert!(check_top_k(4)
            .unwrap_err()
            .contains("page_hit_at_5 reads rank 5"));
        assert!(check_top_k(5).is_ok());
    }

    #[test]
    fn cache_modes_parse_by_name_only() {
        assert_eq!("bypass".parse::<CacheMode>().unwrap(), CacheMode::Bypass);
        assert!("BYPASS".parse::<CacheMode>().is_err());
    }
}
