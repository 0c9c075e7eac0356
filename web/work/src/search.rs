//! One search call of a live run, without the I/O: the request it sends, how its answer is
//! judged (contract §2: failures are loud, and never scored as a miss), and the capture envelope
//! that records it.

use figeval::live::{self, AnswerFailure, Transport};
use figeval::{Match, SearchRequest};

use crate::format;
use crate::settings::RunConfig;

/// The search endpoint of a base URL.
pub fn search_url(config: &RunConfig) -> String {
    search_request(config, "").url()
}

/// The core's description of this run's searches.
fn search_request<'a>(config: &'a RunConfig, corpus_id: &'a str) -> SearchRequest<'a> {
    SearchRequest {
        base_url: &config.base_url,
        corpus_id,
        top_k: config.top_k,
        cache_mode: config.cache_mode,
    }
}

/// The request body: exactly `{"query", "repo_id", "top_k", "cache_mode"}`.
pub fn request_body(question: &str, corpus_id: &str, config: &RunConfig) -> String {
    search_request(config, corpus_id).body(question)
}

/// A capture line: the envelope the command line writes (see
/// [`SearchRequest::envelope_line`]). `body` must be valid JSON (as [`judge`] checked).
pub fn envelope_line(question: &str, config: &RunConfig, body: &str) -> String {
    search_request(config, "").envelope_line(question, body)
}

/// Why one search failed.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The request never got an answer (connection refused, DNS, CORS refused…: the core's
    /// rules read it as a failed connection). What happened, in words: not running there, or
    /// running but not answering this page ([`crate::browser::unreachable`]).
    Transport(String),
    /// The connector in use could not read the answer, or the deployment would not answer
    /// this page (its words, as the connector module put them).
    Connector(String),
    /// The team server's proxy refused or failed (contract §15.7): its `detail`, whether a
    /// retry may help (its `retryable`) and the deployment's `Retry-After` in seconds.
    Proxy {
        /// The server's words (header values already `[redacted]`).
        detail: String,
        /// Its `retryable`.
        retryable: bool,
        /// Its `retry_after`.
        retry_after: Option<String>,
    },
    /// No answer within the timeout.
    Timeout {
        /// The timeout, in milliseconds.
        ms: u32,
    },
    /// An answer that cannot be scored, as the core judged it.
    Answer {
        /// What is wrong with it.
        failure: AnswerFailure,
        /// Its `Retry-After` header, when the deployment exposes it to the page (CORS).
        retry_after: Option<String>,
    },
}

impl Failure {
    /// Whether a retry may help, by the core's rules.
    pub fn retryable(&self) -> bool {
        match self {
            Failure::Transport(_) => Transport::Connect.retryable(),
            Failure::Timeout { .. } => Transport::Timeout.retryable(),
            Failure::Connector(_) => false,
            Failure::Proxy { retryable, .. } => *retryable,
            Failure::Answer { failure, .. } => failure.retryable(),
        }
    }

    /// The `Retry-After` header of the answer, if it had one.
    pub fn retry_after(&self) -> Option<&str> {
        match self {
            Failure::Answer { retry_after, .. } | Failure::Proxy { retry_after, .. } => {
                retry_after.as_deref()
            }
            _ => None,
        }
    }

    /// The message shown when the run stops: names the question and says what went wrong.
    pub fn message(&self, question: &str, url: &str) -> String {
        let what = match self {
            Failure::Transport(words) => words.clone(),
            Failure::Timeout { ms } => format!(
                "no response from {url} within {}",
                format::seconds(f64::from(*ms) / 1000.0)
            ),
            Failure::Answer { failure, .. } => failure.to_string(),
            Failure::Connector(words) | Failure::Proxy { detail: words, .. } => words.clone(),
        };
        format!("The search for question {question:?} failed: {what}")
    }
}

/// A search that succeeded: the body (kept for the capture) and its matches.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The body as received (valid JSON).
    pub body: String,
    /// The matches as scoring reads them.
    pub matches: Vec<Match>,
}

/// Judges an HTTP answer by the core's rules ([`live::judge`]).
pub fn judge(
    status: u16,
    status_text: &str,
    text: String,
    retry_after: Option<String>,
) -> Result<Answer, Failure> {
    match live::judge(status, status_text, &text) {
        Ok(matches) => Ok(Answer {
            body: text,
            matches,
        }),
        Err(failure) => Err(Failure::Answer {
            failure,
            retry_after,
        }),
    }
}

/// Judges an answer of the team server's proxy (contract §15.7): an error is the server's
/// `{"error", "detail", "retryable", "retry_after"}`, said in its words; a 200 is the
/// contract's answer, judged as any deployment's, and stops the run when none of its hits
/// cites a page (`no_page`) while no earlier answer has (`any_page`), as `figeval run
/// --connector` does.
pub fn judge_proxied(
    status: u16,
    status_text: &str,
    text: String,
    any_page: bool,
) -> Result<Answer, Failure> {
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    if !(200..300).contains(&status) {
        let Some(detail) = v["detail"].as_str() else {
            return judge(status, status_text, text, None);
        };
        return Err(Failure::Proxy {
            detail: detail.to_string(),
            retryable: v["retryable"].as_bool().unwrap_or(false),
            retry_after: v["retry_after"].as_f64().map(|s| s.to_string()),
        });
    }
    let answer = judge(status, status_text, text, None)?;
    match v["no_page"].as_str() {
        Some(reason) if !any_page && !cites_a_page(&answer) => {
            Err(Failure::Connector(reason.to_string()))
        }
        _ => Ok(answer),
    }
}

/// Whether one of an answer's matches cites a page.
pub fn cites_a_page(answer: &Answer) -> bool {
    answer.matches.iter().any(|m| m.pages.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    fn config() -> RunConfig {
        Settings::default().validate().unwrap()
    }

    #[test]
    fn the_request_body_has_exactly_the_four_keys_in_order() {
        let body = request_body("Q?", "octave-manual", &config());
        assert_eq!(
            body,
            r#"{"query":"Q?","repo_id":"octave-manual","top_k":5,"cache_mode":"bypass"}"#
        );
    }

    #[test]
    fn the_search_url_appends_search_to_the_base() {
        assert_eq!(search_url(&config()), "http://127.0.0.1:58012/api/search");
    }

    #[test]
    fn an_envelope_is_one_line_holding_the_body_as_received() {
        let body = r#"{"query":"Q?","latency_ms":3.50,"matches":[]}"#;
        let line = envelope_line("Q?", &config(), body);
        assert_eq!(
            line,
            r#"{"question":"Q?","request":{"base_url":"http://127.0.0.1:58012/api","top_k":5,"cache_mode":"bypass"},"response":{"query":"Q?","latency_ms":3.50,"matches":[]}}"#
        );
    }

    #[test]
    fn a_pretty_printed_body_is_folded_onto_one_line() {
        let body = "{\n  \"query\": \"Q?\",\n  \"matches\": []\n}\n";
        let line = envelope_line("Q \"quoted\"", &config(), body);
        assert!(!line.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["question"], "Q \"quoted\"");
        assert_eq!(v["response"]["query"], "Q?");
    }

    #[test]
    fn a_server_error_quotes_the_status_and_the_first_500_characters() {
        let long = "x".repeat(900);
        let f = judge(500, "Internal Server Error", long, None).unwrap_err();
        assert!(!f.retryable());
        let msg = f.message("Which figure?", "http://h/api/search");
        assert!(msg.contains("\"Which figure?\""));
        assert!(msg.contains("HTTP 500 Internal Server Error"));
        assert!(msg.contains(&"x".repeat(500)));
        assert!(!msg.contains(&"x".repeat(501)));
    }

    #[test]
    fn only_overload_statuses_and_connection_errors_are_retried() {
        for s in [429, 502, 503, 504] {
            assert!(
                judge(s, "", String::new(), None).unwrap_err().retryable(),
                "{s}"
            );
        }
        for s in [400, 404, 422, 500] {
            assert!(
                !judge(s, "", String::new(), None).unwrap_err().retryable(),
                "{s}"
            );
        }
        let f = judge(429, "", String::new(), Some("3".into())).unwrap_err();
        assert_eq!(f.retry_after(), Some("3"));
        assert!(Failure::Transport("TypeError".into()).retryable());
        assert!(!Failure::Timeout { ms: 1 }.retryable());
    }

    #[test]
    fn a_body_that_is_not_json_is_a_failure_not_a_miss() {
        let f = judge(200, "OK", "<html>oops</html>".into(), None).unwrap_err();
        assert!(matches!(
            f,
            Failure::Answer {
                failure: AnswerFailure::NotJson { .. },
                ..
            }
        ));
        assert!(f.message("Q", "u").contains("not JSON"));
    }

    #[test]
    fn a_body_without_matches_lists_its_keys() {
        let f = judge(200, "OK", r#"{"detail":"nope","query":"Q"}"#.into(), None).unwrap_err();
        let msg = f.message("Q", "u");
        assert!(msg.contains("no `matches` array"), "{msg}");
        assert!(msg.contains("detail, query"), "{msg}");
    }

    #[test]
    fn a_match_that_is_not_an_object_names_its_rank() {
        let f = judge(200, "OK", r#"{"matches":[{}, 3]}"#.into(), None).unwrap_err();
        assert!(f.message("Q", "u").contains("rank 2"));
    }

    #[test]
    fn a_proxy_failure_is_said_in_the_servers_words_and_retried_when_it_says_so() {
        let body = r#"{"error":"deployment_failed","detail":"staging: the deployment answered HTTP 503: [redacted]","status":503,"retryable":true,"retry_after":2}"#;
        let f = judge_proxied(502, "Bad Gateway", body.into(), false).unwrap_err();
        assert!(f.retryable());
        assert_eq!(f.retry_after(), Some("2"));
        assert_eq!(
            f.message("q", "u"),
            "The search for question \"q\" failed: staging: the deployment answered HTTP 503: [redacted]"
        );
        let unknown =
            r#"{"error":"not_found","detail":"no deployment is named \"x\"","retryable":false}"#;
        assert!(!judge_proxied(404, "Not Found", unknown.into(), false)
            .unwrap_err()
            .retryable());
    }

    #[test]
    fn a_proxied_answer_citing_no_page_stops_the_run_only_before_any_page_was_cited() {
        let body = r#"{"read_through":"langserve","matches":[{"chunk_id":1,"provenance":{}}],"no_page":"no hit has output[].metadata.page"}"#;
        assert_eq!(
            judge_proxied(200, "OK", body.into(), false).unwrap_err(),
            Failure::Connector("no hit has output[].metadata.page".into())
        );
        assert!(judge_proxied(200, "OK", body.into(), true).is_ok());
        let cited = r#"{"matches":[{"chunk_id":1,"provenance":{"page_start":3,"page_end":3}}]}"#;
        assert!(cites_a_page(
            &judge_proxied(200, "OK", cited.into(), false).unwrap()
        ));
    }

    #[test]
    fn a_good_answer_keeps_the_body_and_reads_the_matches() {
        let a = judge(
            200,
            "OK",
            r#"{"matches":[{"chunk_id":7,"provenance":{"page_start":3,"page_end":4}}]}"#.into(),
            None,
        )
        .unwrap();
        assert_eq!(a.matches.len(), 1);
        assert_eq!(a.matches[0].chunk_id, "7");
        assert!(a.body.contains("\"chunk_id\":7"));
    }
}
