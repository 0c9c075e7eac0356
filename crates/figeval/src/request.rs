//! The search request of a live run (contract §2), and the capture envelope that records it.
//! The command line and the browser app both send and record searches through this.

use crate::report::CacheMode;

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
}
