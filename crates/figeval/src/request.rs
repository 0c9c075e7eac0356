//! The search request of a live run (contract §2), and the capture envelope that records it.
//! The command line and the browser app both send and record searches through this.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The smallest `top_k` accepted.
pub const MIN_TOP_K: u32 = 5;

/// The name of the default connector (contract §14): the contract's own search request and
/// `matches` array, read by the contract's own reader. A capture that records no connector was
/// made with it.
pub(crate) const DEFAULT_CONNECTOR: &str = "ragweld";

/// Why `top_k` may not be below [`MIN_TOP_K`].
pub const TOP_K_REASON: &str =
    "page_hit_at_5 reads rank 5, and a smaller window would silently make it a copy of page_hit_at_3";

/// The search's cache mode (contract §2.1).
///
/// Its [`Default`] is [`CacheMode::Bypass`], figeval's own choice; the mode whose wire name is
/// `"default"` is [`CacheMode::DeploymentDefault`], named so that `CacheMode::default()` and
/// the deployment's default cannot be mistaken for each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheMode {
    /// Whatever the deployment does when asked with `"default"`: its own default.
    #[serde(rename = "default")]
    DeploymentDefault,
    /// Skip the cache, so a before/after comparison never replays cached results.
    #[default]
    Bypass,
    /// Recompute and store.
    Refresh,
}

impl CacheMode {
    /// Every mode.
    pub const ALL: [CacheMode; 3] = [
        CacheMode::DeploymentDefault,
        CacheMode::Bypass,
        CacheMode::Refresh,
    ];

    /// The name sent in the request.
    pub fn name(self) -> &'static str {
        match self {
            CacheMode::DeploymentDefault => "default",
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

/// A name that is not a cache mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCacheMode {
    /// The name given.
    pub name: String,
}

impl fmt::Display for UnknownCacheMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the cache mode must be default, bypass or refresh, not {:?}",
            self.name
        )
    }
}

impl std::error::Error for UnknownCacheMode {}

impl FromStr for CacheMode {
    type Err = UnknownCacheMode;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CacheMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownCacheMode {
                name: s.to_string(),
            })
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
        self.envelope_line_with(question, body, None)
    }

    /// A capture line of an answer read through a connector: as [`SearchRequest::envelope_line`],
    /// with `request.connector` the connector's record ([`crate::Connector::record`]; never a
    /// header value). `None` writes exactly the default connector's line.
    pub fn envelope_line_with(
        &self,
        question: &str,
        body: &str,
        connector: Option<&serde_json::Value>,
    ) -> String {
        let mut request = serde_json::json!({
            "base_url": self.base_url,
            "top_k": self.top_k,
            "cache_mode": self.cache_mode.name(),
        });
        if let Some(c) = connector {
            request["connector"] = c.clone();
        }
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
    fn the_deployments_default_keeps_its_wire_name_and_is_not_figevals_default() {
        for m in CacheMode::ALL {
            let wire = serde_json::to_string(&m).unwrap();
            assert_eq!(wire, format!("\"{}\"", m.name()));
            assert_eq!(serde_json::from_str::<CacheMode>(&wire).unwrap(), m);
        }
        assert_eq!(CacheMode::DeploymentDefault.name(), "default");
        assert_eq!(CacheMode::default(), CacheMode::Bypass);
    }

    #[test]
    fn cache_modes_parse_by_name_only() {
        assert_eq!("bypass".parse::<CacheMode>().unwrap(), CacheMode::Bypass);
        assert_eq!(
            "default".parse::<CacheMode>().unwrap(),
            CacheMode::DeploymentDefault
        );
        assert!("BYPASS".parse::<CacheMode>().is_err());
    }
}
