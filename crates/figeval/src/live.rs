//! The rules of a live run (SPEC §2), without the I/O: the limits and defaults of its settings,
//! which failures are retried and how long to wait first, how an answer is judged, and how
//! much of a failing body a message quotes. The command line and the page both call these, so
//! they agree by construction.
//!
//! The choices, where the contract leaves them open:
//!
//! - **Retried**: 429, 502, 503 and 504, and a connection that failed or dropped before an
//!   answer. Not a timeout (the deployment may still be working on it, and asking again doubles
//!   its load), not any other status, and not an answer that cannot be scored.
//! - **Backoff**: 0.5 s before the first retry, doubling, at most 8 s: long enough for a
//!   deployment that is warming up or rate limiting, short enough that two retries (the
//!   default) cost 1.5 s. A `Retry-After` of N seconds is honoured, up to 30 s, so a
//!   deployment that knows when it will be back is believed, and a wrong header cannot stall a
//!   run for an hour. Only the delay-seconds form is read (the date form needs a clock).
//! - **Quotes**: the first 500 characters of a failing body (SPEC §2).
//! - **Limits**: concurrency 1–64 (16 already saturates the reference deployment on two cores,
//!   and a typo such as 400 must not flood somebody's GPU), retries 0–10 (ten retries at the
//!   8 s cap is over a minute for one question), timeout above 0 and at most 3600 s; `top_k`
//!   at least [`MIN_TOP_K`].
//! - **Defaults**: concurrency 4, 2 retries, timeout 120 s, `top_k` 5, cache mode `bypass`,
//!   base URL `http://127.0.0.1:58012/api` (SPEC §2).

use std::fmt;
use std::ops::RangeInclusive;

use crate::capture::MAX_LINE_BYTES;
#[cfg(feature = "connectors")]
use crate::connector::{MappedAnswer, Reader, Secrets};
use crate::describe;
use crate::request::{MIN_TOP_K, TOP_K_REASON};
use crate::response::{Match, Response, ResponseProblem};

/// The deployment asked when none is given.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:58012/api";
/// Matches asked for when `top_k` is not given.
pub const DEFAULT_TOP_K: u32 = MIN_TOP_K;
/// Seconds to wait for one search when no timeout is given.
pub const DEFAULT_TIMEOUT_S: u32 = 120;
/// The longest timeout accepted, in seconds.
pub const MAX_TIMEOUT_S: u32 = 3600;
/// Searches in flight at once when not given: enough to make a 30-question eval quick, gentle
/// enough for a deployment whose embedder or reranker shares one GPU.
pub const DEFAULT_CONCURRENCY: u32 = 4;
/// The searches in flight at once that may be asked for.
pub const CONCURRENCY: RangeInclusive<u32> = 1..=64;
/// Retries of one search when not given.
pub const DEFAULT_RETRIES: u32 = 2;
/// The retries of one search that may be asked for.
pub const RETRIES: RangeInclusive<u32> = 0..=10;
/// How many characters of a failing body a message quotes.
pub const BODY_QUOTE_CHARS: usize = 500;
/// The largest response body read; a larger one is a failure, not a silent truncation.
pub const MAX_BODY_BYTES: usize = MAX_LINE_BYTES;

/// The wait before the first retry, in milliseconds, doubling after that.
const FIRST_BACKOFF_MS: u32 = 500;
/// The longest wait of the doubling backoff, in milliseconds.
const MAX_BACKOFF_MS: u32 = 8_000;
/// The longest `Retry-After` honoured, in seconds.
const MAX_RETRY_AFTER_S: u32 = 30;

/// Why a setting of a live run is refused: each variant's message states the rule, as the
/// command line prints it after the flag's name and the page shows it beside the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingError {
    /// A setting that must be a whole number in `min..=max` is not (`setting` names it, e.g.
    /// `concurrency`).
    OutOfRange {
        /// The setting's name as the message says it.
        setting: &'static str,
        /// The smallest value accepted.
        min: u32,
        /// The largest value accepted.
        max: u32,
    },
    /// `top_k` below [`MIN_TOP_K`]: the value asked for.
    TopKTooSmall {
        /// The `top_k` asked for.
        top_k: u32,
    },
    /// A timeout that is not above 0 and at most [`MAX_TIMEOUT_S`] seconds. The value is not
    /// kept: a float's shortest form would bring its formatting code into the page's bundle.
    Timeout,
    /// A base URL that is not an http:// or https:// address with a host.
    BaseUrl,
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::OutOfRange { setting, min, max } => {
                write!(f, "{setting} must be a whole number from {min} to {max}")
            }
            SettingError::TopKTooSmall { top_k } => write!(
                f,
                "top_k must be at least {MIN_TOP_K}, not {top_k}: {TOP_K_REASON}"
            ),
            SettingError::Timeout => write!(
                f,
                "the timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT_S}"
            ),
            SettingError::BaseUrl => write!(
                f,
                "the base URL must be an http:// or https:// address such as {DEFAULT_BASE_URL}"
            ),
        }
    }
}

impl std::error::Error for SettingError {}

/// The whole number `text` says, when it is in `range`; else the rule (`setting` names the
/// setting). The command line's flags and the page's form both read their numbers with it.
pub fn check_in(
    setting: &'static str,
    text: &str,
    range: &RangeInclusive<u32>,
) -> Result<u32, SettingError> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or(SettingError::OutOfRange {
            setting,
            min: *range.start(),
            max: *range.end(),
        })
}

/// `Ok` when `top_k` is at least [`MIN_TOP_K`]; else [`SettingError::TopKTooSmall`], whose
/// message gives the reason ([`TOP_K_REASON`]).
pub fn check_top_k(top_k: u32) -> Result<(), SettingError> {
    if top_k < MIN_TOP_K {
        Err(SettingError::TopKTooSmall { top_k })
    } else {
        Ok(())
    }
}

/// `seconds` when it is a timeout of one search (above 0, at most [`MAX_TIMEOUT_S`]), or why
/// it is not one.
pub fn check_timeout(seconds: f64) -> Result<f64, SettingError> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= f64::from(MAX_TIMEOUT_S) {
        Ok(seconds)
    } else {
        Err(SettingError::Timeout)
    }
}

/// The deployment's API base as searches use it (trimmed, no trailing `/`), or why `text` is
/// not an http:// or https:// address.
pub fn check_base_url(text: &str) -> Result<String, SettingError> {
    let base = text.trim();
    let base = base.strip_suffix('/').unwrap_or(base);
    let host = base
        .strip_prefix("http://")
        .or_else(|| base.strip_prefix("https://"));
    if host.is_none_or(|h| h.is_empty() || h.starts_with('/')) {
        return Err(SettingError::BaseUrl);
    }
    Ok(base.to_string())
}

/// Whether an answer with this status may be retried: rate limiting and gateway trouble.
pub(crate) fn retryable_status(status: u16) -> bool {
    matches!(status, 429 | 502 | 503 | 504)
}

/// How a search failed to get an answer at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// No connection: refused, unknown host, or (in a browser, which cannot tell) blocked.
    Connect,
    /// The connection dropped before a whole answer came (reset, closed, cut short).
    Dropped,
    /// No answer within the timeout.
    Timeout,
    /// Anything else (a bad address, TLS, a broken protocol).
    Other,
}

impl Transport {
    /// Whether a retry may help: a connection that failed or dropped, not a timeout.
    pub fn retryable(self) -> bool {
        matches!(self, Transport::Connect | Transport::Dropped)
    }
}

/// What a page can do instead when it cannot reach a deployment: the same words whether the
/// deployment is down or does not answer the page (CORS).
pub const UNREACHABLE_INSTEAD: &str = "To run anyway, serve this page from the deployment's own \
    origin (same scheme, host and port), or make a capture with `figeval run` where the \
    deployment is reachable and score it here (Score saved responses)";

/// Why a page got no answer from `url`, when asked again without CORS got no answer either:
/// the deployment is not running there (or the address is wrong). `detail` is the browser's
/// error.
pub fn unreachable_words(url: &str, detail: &str) -> String {
    format!(
        "could not reach {url} ({detail}): is the deployment running at that address? \
         {UNREACHABLE_INSTEAD}."
    )
}

/// Why a page got no answer from `url` that it may read, when asked again without CORS got
/// one: the deployment runs, but does not answer a page from `origin`. Names the header it
/// must send, and the request headers it must allow when the page sends `headers` (their
/// names).
pub fn cors_words(url: &str, origin: &str, headers: &[&str]) -> String {
    let mut m = format!(
        "{url} is running, but does not answer this page (CORS): the deployment must send the \
         header Access-Control-Allow-Origin: {origin}"
    );
    if !headers.is_empty() {
        m.push_str(&format!(
            ", and allow the request headers Content-Type, {} (Access-Control-Allow-Headers)",
            headers.join(", ")
        ));
    }
    m.push_str(&format!(". {UNREACHABLE_INSTEAD}."));
    m
}

/// The wait in milliseconds before retry number `retry` (1 for the first), given the answer's
/// `Retry-After` header if it had one. At most 30 s, so it fits any timer.
pub fn retry_delay_ms(retry: u32, retry_after: Option<&str>) -> u32 {
    let doubling = FIRST_BACKOFF_MS.saturating_mul(1 << retry.saturating_sub(1).min(16));
    let backoff = doubling.min(MAX_BACKOFF_MS);
    match retry_after.and_then(|v| v.trim().parse::<u32>().ok()) {
        Some(s) => (s.min(MAX_RETRY_AFTER_S) * 1000).max(backoff),
        None => backoff,
    }
}

/// Why an answer that arrived cannot be scored (SPEC §2: a failure, never a miss).
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerFailure {
    /// A status outside 2xx.
    Status {
        /// The status code.
        status: u16,
        /// The status text, possibly empty.
        status_text: String,
        /// What the deployment said, when the body is a JSON object with a `detail`,
        /// `message` or `error` ([`deployment_words`]).
        said: Option<String>,
        /// The start of the body, quoted.
        body_start: String,
    },
    /// A body over [`MAX_BODY_BYTES`].
    TooLarge,
    /// A body that is not JSON.
    NotJson {
        /// Where and what, from the parser.
        error: String,
        /// The start of the body, quoted.
        body_start: String,
    },
    /// JSON, but not a response that can be scored.
    Problem(ResponseProblem),
}

impl AnswerFailure {
    /// Whether a retry may help (a 429, 502, 503 or 504).
    pub fn retryable(&self) -> bool {
        matches!(self, AnswerFailure::Status { status, .. } if retryable_status(*status))
    }
}

impl fmt::Display for AnswerFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerFailure::Status {
                status,
                status_text,
                said,
                body_start,
            } => {
                write!(f, "the deployment answered HTTP {status}")?;
                if !status_text.is_empty() {
                    write!(f, " {status_text}")?;
                }
                match said {
                    Some(words) => write!(f, ": {words}"),
                    None => write!(f, "; its body starts: {body_start}"),
                }
            }
            AnswerFailure::TooLarge => {
                write!(f, "the response body is over {MAX_BODY_BYTES} bytes")
            }
            AnswerFailure::NotJson { error, body_start } => {
                write!(
                    f,
                    "the response is not JSON ({error}); its body starts: {body_start}"
                )
            }
            AnswerFailure::Problem(p) => write!(f, "{p}"),
        }
    }
}

/// The start of a failing body as messages quote it: its first [`BODY_QUOTE_CHARS`]
/// characters as a string literal (so markup and control characters stay visible as text).
pub fn quote_body(text: &str) -> String {
    if text.is_empty() {
        return "(empty)".to_string();
    }
    let start = describe::first_chars(text, BODY_QUOTE_CHARS);
    let cut = if start.len() < text.len() { "…" } else { "" };
    format!("{start:?}{cut}")
}

/// What a failing body says in words: the `detail`, `message` or `error` of a JSON object
/// (the first of them present; a string as it is, any other value as compact JSON), cut to
/// [`BODY_QUOTE_CHARS`] characters. `None` when the body is not JSON or has none of them: the
/// message then quotes the body's start instead.
pub fn deployment_words(body: &str) -> Option<String> {
    let serde_json::Value::Object(map) = serde_json::from_str(body).ok()? else {
        return None;
    };
    let value = ["detail", "message", "error"]
        .iter()
        .find_map(|k| map.get(*k).filter(|v| !v.is_null()))?;
    let text = match value {
        serde_json::Value::String(s) => s.trim().to_string(),
        other => other.to_string(),
    };
    if text.is_empty() {
        return None;
    }
    let start = describe::first_chars(&text, BODY_QUOTE_CHARS);
    let cut = if start.len() < text.len() { "…" } else { "" };
    Some(format!("{start}{cut}"))
}

/// Judges an answer: its status, then its body (JSON with a `matches` array of objects).
pub fn judge(status: u16, status_text: &str, body: &str) -> Result<Vec<Match>, AnswerFailure> {
    if !(200..300).contains(&status) {
        return Err(AnswerFailure::Status {
            status,
            status_text: status_text.to_string(),
            said: deployment_words(body),
            body_start: quote_body(body),
        });
    }
    if body.len() > MAX_BODY_BYTES {
        return Err(AnswerFailure::TooLarge);
    }
    let response = Response::parse(body).map_err(|e| AnswerFailure::NotJson {
        error: describe::json_error(&e),
        body_start: quote_body(body),
    })?;
    response.matches.map_err(AnswerFailure::Problem)
}

/// Judges an answer read through a connector: its status, then its body through the mapping
/// (a `hits` pointer that finds no array is a failure, as a missing `matches` is). Every
/// header value sent is `[redacted]` in a quoted body: some deployments echo the credentials
/// they refused.
#[cfg(feature = "connectors")]
pub fn judge_mapped(
    reader: &Reader,
    secrets: &Secrets,
    status: u16,
    status_text: &str,
    body: &str,
) -> Result<MappedAnswer, AnswerFailure> {
    if !(200..300).contains(&status) {
        let redacted = secrets.redact(body);
        return Err(AnswerFailure::Status {
            status,
            status_text: status_text.to_string(),
            said: deployment_words(&redacted),
            body_start: quote_body(&redacted),
        });
    }
    if body.len() > MAX_BODY_BYTES {
        return Err(AnswerFailure::TooLarge);
    }
    let answer = reader
        .read_answer(body, false)
        .map_err(|e| AnswerFailure::NotJson {
            error: describe::json_error(&e),
            body_start: quote_body(&secrets.redact(body)),
        })?;
    match answer.matches {
        Err(p) => Err(AnswerFailure::Problem(p)),
        Ok(_) => Ok(answer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rate_limits_gateway_errors_and_lost_connections_are_retried() {
        for s in [429, 502, 503, 504] {
            assert!(retryable_status(s), "{s}");
            assert!(judge(s, "", "").unwrap_err().retryable(), "{s}");
        }
        for s in [400, 404, 422, 500, 501, 505] {
            assert!(!judge(s, "", "").unwrap_err().retryable(), "{s}");
        }
        assert!(Transport::Connect.retryable());
        assert!(Transport::Dropped.retryable());
        assert!(!Transport::Timeout.retryable(), "a timeout is not retried");
        assert!(!Transport::Other.retryable());
        assert!(!judge(200, "", "<html>").unwrap_err().retryable());
    }

    #[test]
    fn the_backoff_doubles_from_half_a_second_up_to_eight() {
        let ms = |r| retry_delay_ms(r, None);
        assert_eq!(
            [ms(1), ms(2), ms(3), ms(4), ms(5), ms(6)],
            [500, 1000, 2000, 4000, 8000, 8000]
        );
        assert_eq!(ms(u32::MAX), 8000, "no overflow however many retries");
    }

    #[test]
    fn retry_after_is_honoured_up_to_thirty_seconds_and_never_shortens_the_backoff() {
        assert_eq!(retry_delay_ms(1, Some("2")), 2_000);
        assert_eq!(retry_delay_ms(1, Some(" 3600 ")), 30_000);
        assert_eq!(
            retry_delay_ms(1, Some("99999999999")),
            500,
            "not a number of seconds we read"
        );
        assert_eq!(retry_delay_ms(4, Some("0")), 4_000);
        assert_eq!(
            retry_delay_ms(1, Some("Wed, 21 Oct 2026 07:28:00 GMT")),
            500,
            "the date form is not read"
        );
    }

    #[test]
    fn a_failing_body_is_quoted_to_500_characters_as_text() {
        let long = format!("<b>{}", "é".repeat(900));
        let Err(AnswerFailure::Status { body_start, .. }) =
            judge(500, "Internal Server Error", &long)
        else {
            panic!("a 500 is a failure");
        };
        assert!(body_start.starts_with("\"<b>ééé"), "{body_start}");
        assert!(body_start.ends_with("\"…"));
        assert_eq!(body_start.chars().filter(|&c| c == 'é').count(), 497);
        assert_eq!(quote_body(""), "(empty)");
        assert_eq!(quote_body("a\nb"), "\"a\\nb\"");
        let msg = judge(500, "Internal Server Error", "{}")
            .unwrap_err()
            .to_string();
        assert_eq!(
            msg,
            "the deployment answered HTTP 500 Internal Server Error; its body starts: \"{}\""
        );
    }

    #[test]
    fn a_json_error_body_is_shown_as_the_deployments_words_not_quoted() {
        let msg = |body: &str| judge(404, "Not Found", body).unwrap_err().to_string();
        assert_eq!(
            msg(r#"{"detail":"unknown corpus \"nasa-apollo-11\""}"#),
            "the deployment answered HTTP 404 Not Found: unknown corpus \"nasa-apollo-11\""
        );
        assert_eq!(
            msg(r#"{"message":"no index","code":7}"#),
            "the deployment answered HTTP 404 Not Found: no index"
        );
        assert_eq!(
            msg(r#"{"error":{"kind":"auth"}}"#),
            "the deployment answered HTTP 404 Not Found: {\"kind\":\"auth\"}"
        );
        // Not JSON, or JSON without words: the body's start, quoted.
        assert!(msg("<b>gone</b>").ends_with("its body starts: \"<b>gone</b>\""));
        assert!(msg(r#"{"detail":""}"#).contains("its body starts:"));
        let long = format!(r#"{{"detail":"{}"}}"#, "x".repeat(900));
        let words = deployment_words(&long).unwrap();
        assert_eq!(words, format!("{}…", "x".repeat(500)));
    }

    #[test]
    fn an_answer_is_judged_status_then_json_then_matches() {
        let f = judge(200, "OK", "<html>oops</html>").unwrap_err();
        assert!(
            f.to_string().starts_with(
                "the response is not JSON (line 1, column 1: a value (a string in double quotes,"
            ),
            "{f}"
        );
        assert!(
            f.to_string()
                .ends_with("its body starts: \"<html>oops</html>\""),
            "{f}"
        );
        let f = judge(200, "OK", r#"{"detail":"nope","query":"Q"}"#).unwrap_err();
        assert!(
            f.to_string()
                .contains("no `matches` array (its keys: detail, query)"),
            "{f}"
        );
        let f = judge(200, "OK", r#"{"matches":[{}, 3]}"#).unwrap_err();
        assert!(f.to_string().contains("rank 2"), "{f}");
        let m = judge(204, "", r#"{"matches":[{"chunk_id":7}]}"#).unwrap();
        assert_eq!(m[0].chunk_id, "7");
    }

    #[test]
    fn settings_outside_their_limits_are_refused_with_the_rule() {
        assert_eq!(check_in("concurrency", " 64 ", &CONCURRENCY), Ok(64));
        assert_eq!(
            check_in("concurrency", "65", &CONCURRENCY),
            Err(SettingError::OutOfRange {
                setting: "concurrency",
                min: 1,
                max: 64
            })
        );
        for bad in ["0", "-1", "2.5", "", "four", "99999999999"] {
            assert!(
                check_in("concurrency", bad, &CONCURRENCY).is_err(),
                "{bad:?}"
            );
        }
        assert_eq!(check_in("retries", "0", &RETRIES), Ok(0));
        assert_eq!(check_timeout(0.25), Ok(0.25));
        for bad in [0.0, -1.0, 3600.5, f64::NAN, f64::INFINITY] {
            assert!(check_timeout(bad).is_err(), "{bad}");
        }
        assert_eq!(
            check_base_url(" http://h:1/api/ "),
            Ok("http://h:1/api".into())
        );
        for bad in ["ftp://x", "http://", "http:///api", "127.0.0.1:58012/api"] {
            assert!(check_base_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_setting_error_states_its_rule() {
        let cases = [
            (
                check_in("retries", "11", &RETRIES).unwrap_err(),
                "retries must be a whole number from 0 to 10",
            ),
            (
                check_top_k(4).unwrap_err(),
                "top_k must be at least 5, not 4: page_hit_at_5 reads rank 5, and a smaller \
                 window would silently make it a copy of page_hit_at_3",
            ),
            (
                check_timeout(0.0).unwrap_err(),
                "the timeout must be a number of seconds above 0 and at most 3600",
            ),
            (
                check_base_url("ftp://x").unwrap_err(),
                "the base URL must be an http:// or https:// address such as \
                 http://127.0.0.1:58012/api",
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message, "{error:?}");
        }
        assert_eq!(check_top_k(0), Err(SettingError::TopKTooSmall { top_k: 0 }));
        assert_eq!(check_timeout(f64::NAN), Err(SettingError::Timeout));
        assert_eq!(check_base_url("http://"), Err(SettingError::BaseUrl));
    }

    #[test]
    fn the_defaults_are_inside_the_limits() {
        assert!(CONCURRENCY.contains(&DEFAULT_CONCURRENCY));
        assert!(RETRIES.contains(&DEFAULT_RETRIES));
        assert!(check_timeout(f64::from(DEFAULT_TIMEOUT_S)).is_ok());
        assert!(check_top_k(DEFAULT_TOP_K).is_ok());
        assert_eq!(
            check_base_url(DEFAULT_BASE_URL).as_deref(),
            Ok(DEFAULT_BASE_URL)
        );
    }

    #[test]
    fn a_page_that_cannot_reach_a_deployment_is_told_why_and_what_to_do_instead() {
        let down = unreachable_words(
            "http://127.0.0.1:9/api/search",
            "TypeError: Failed to fetch",
        );
        assert!(down.starts_with("could not reach http://127.0.0.1:9/api/search (TypeError: Failed to fetch): is the deployment running"), "{down}");
        let cors = cors_words(
            "http://h/api/search",
            "http://127.0.0.1:8080",
            &["X-Api-Key"],
        );
        assert!(
            cors.contains("is running, but does not answer this page (CORS)"),
            "{cors}"
        );
        assert!(cors.contains("Access-Control-Allow-Origin: http://127.0.0.1:8080, and allow the request headers Content-Type, X-Api-Key"), "{cors}");
        for m in [down, cors] {
            assert!(
                m.contains("serve this page from the deployment's own origin"),
                "{m}"
            );
            assert!(m.contains("`figeval run`"), "{m}");
        }
    }
}
