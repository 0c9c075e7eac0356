//! The proxy to configured deployments (contract §15.7): `--deployments FILE` names each
//! deployment, its connector and the headers the server adds (their values from the server's
//! environment); the page searches through `POST /api/deployments/{name}/search` with the
//! contract's search body and gets the answer in §3's shape, read by the core's connector code
//! as `figeval run --connector` reads it. Only the configured base URLs are ever asked, never a
//! URL from the request; header values never leave the server.

use std::io::Read;
use std::path::Path;
use std::time::Duration;

use figeval::connector::{Asked, Reader, Secrets};
use figeval::live::{self, AnswerFailure};
use figeval::{CacheMode, Connector};
use serde::Deserialize;

use crate::error::ApiError;
use axum::http::StatusCode;

/// One configured deployment.
pub struct Deployment {
    /// Its name, the one path segment the page names it by.
    pub name: String,
    base_url: String,
    connector: Connector,
    /// The compiled mapping; `None` for `ragweld`, read by the contract's own reader.
    reader: Option<Reader>,
    /// What an answer's `read_through` states of the connector.
    stated: String,
    secrets: Secrets,
    timeout: Duration,
}

/// The configured deployments (none without `--deployments`).
#[derive(Default)]
pub struct Deployments {
    list: Vec<Deployment>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    deployments: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    base_url: String,
    #[serde(default)]
    connector: Option<serde_json::Value>,
    #[serde(default)]
    headers: Vec<(String, String)>,
    #[serde(default)]
    timeout_s: Option<f64>,
}

/// The longest deployment name.
const MAX_NAME: usize = 64;

impl Deployments {
    /// Reads `--deployments FILE` and resolves every header value from the environment (`env`
    /// gives a variable's value): an unknown preset, a bad mapping, a bad base URL, a repeated
    /// name or an unset variable refuses the start, named.
    pub fn load(path: &Path, env: impl Fn(&str) -> Option<String>) -> Result<Deployments, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Deployments::parse(&text, env).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads a deployments file's text.
    pub fn parse(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<Deployments, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        // Headers are an object in the file; read in file order.
        let file: File =
            serde_json::from_value(headers_as_pairs(value)).map_err(|e| e.to_string())?;
        let mut list: Vec<Deployment> = Vec::new();
        for (i, e) in file.deployments.into_iter().enumerate() {
            let at = format!("deployments[{i}]");
            let name_ok = !e.name.is_empty()
                && e.name.len() <= MAX_NAME
                && e.name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
            if !name_ok {
                return Err(format!(
                    "{at}.name {:?}: a name is 1 to {MAX_NAME} letters, digits, '-', '_' or '.'",
                    e.name
                ));
            }
            if list.iter().any(|d| d.name == e.name) {
                return Err(format!("{at}.name {:?} is used twice", e.name));
            }
            let at = format!("deployment {:?}", e.name);
            let base_url = live::check_base_url(&e.base_url).map_err(|m| format!("{at}: {m}"))?;
            let mut connector = match &e.connector {
                None => Connector::ragweld(),
                Some(serde_json::Value::String(n)) => Connector::preset(n).ok_or_else(|| {
                    format!(
                        "{at}: connector {n:?} is not a preset ({})",
                        Connector::preset_names().join(", ")
                    )
                })?,
                Some(v) => Connector::from_value(v).map_err(|m| format!("{at}: connector: {m}"))?,
            };
            for (name, value) in e.headers {
                connector
                    .request
                    .headers
                    .retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
                connector.request.headers.push((name, value));
            }
            let reader = if connector.is_ragweld() {
                None
            } else {
                Some(Reader::new(&connector, None).map_err(|m| {
                    format!("{at}: {m}; the server reads no PDF, so it cannot map page labels")
                })?)
            };
            let secrets = connector.secrets(&env).map_err(|m| format!("{at}: {m}"))?;
            let timeout = match e.timeout_s {
                None => f64::from(live::DEFAULT_TIMEOUT_S),
                Some(t) => live::check_timeout(t).map_err(|m| format!("{at}: timeout_s: {m}"))?,
            };
            list.push(Deployment {
                stated: connector.stated_record(),
                name: e.name,
                base_url,
                connector,
                reader,
                secrets,
                timeout: Duration::from_secs_f64(timeout),
            });
        }
        Ok(Deployments { list })
    }

    /// `GET /api/deployments`: each deployment's name, its connector (a preset's name, or the
    /// mapping as a capture records it, header values `[redacted]`) and the names of the headers
    /// it sends. Never a base URL or a header value.
    pub fn listing(&self) -> serde_json::Value {
        let list: Vec<serde_json::Value> = self
            .list
            .iter()
            .map(|d| {
                let headers: Vec<&str> = d
                    .secrets
                    .headers()
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect();
                serde_json::json!({
                    "name": d.name,
                    "connector": d.connector.record(),
                    "headers": headers,
                })
            })
            .collect();
        serde_json::json!({ "deployments": list })
    }

    /// The deployment named `name`.
    pub fn get(&self, name: &str) -> Option<&Deployment> {
        self.list.iter().find(|d| d.name == name)
    }

    /// How many are configured.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether none is configured.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// `"headers": {"A": "x"}` as pairs in file order, for serde.
fn headers_as_pairs(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(list) = v.get_mut("deployments").and_then(|d| d.as_array_mut()) {
        for d in list {
            if let Some(h) = d.get_mut("headers") {
                if let Some(map) = h.as_object() {
                    let pairs: Vec<serde_json::Value> =
                        map.iter().map(|(k, v)| serde_json::json!([k, v])).collect();
                    *h = serde_json::Value::Array(pairs);
                }
            }
        }
    }
    v
}

/// The search body of contract §2.1.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchBody {
    query: String,
    #[serde(default)]
    repo_id: String,
    top_k: u32,
    #[serde(default = "bypass")]
    cache_mode: String,
}

fn bypass() -> String {
    "bypass".into()
}

/// A search's answer: the status and JSON body the page gets.
pub type Answer = (StatusCode, String);

impl Deployment {
    /// Asks the deployment `body`'s question (blocking: the handler runs it off the async
    /// threads) and answers in §3's shape, or with an error whose words are §2.3's, every
    /// header value `[redacted]`.
    pub fn search(&self, body: &[u8]) -> Result<Answer, ApiError> {
        let asked: SearchBody = serde_json::from_slice(body).map_err(|e| {
            ApiError::bad_request(format!(
                "the body is not the contract's search body {{\"query\", \"repo_id\", \"top_k\", \"cache_mode\"}}: {e}"
            ))
        })?;
        live::check_top_k(asked.top_k).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let cache_mode: CacheMode =
            asked
                .cache_mode
                .parse()
                .map_err(|e: figeval::request::UnknownCacheMode| {
                    ApiError::bad_request(e.to_string())
                })?;
        let template = Asked {
            base_url: &self.base_url,
            question: &asked.query,
            corpus_id: &asked.repo_id,
            top_k: asked.top_k,
            cache_mode,
        };
        let url = self.connector.url(&template);
        let agent = ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(10).min(self.timeout))
            .timeout(self.timeout)
            // A redirect is an answer, judged as a failure: the server asks only the
            // configured URL, never one a deployment points it to.
            .redirects(0)
            .user_agent(concat!("figeval-serve/", env!("CARGO_PKG_VERSION")))
            .build();
        let mut req = agent
            .request(self.connector.request.method.name(), &url)
            .set("Accept", "application/json");
        let sent = self.connector.body(&template);
        if sent.is_some() {
            req = req.set("Content-Type", "application/json");
        }
        for (name, value) in self.secrets.headers() {
            req = req.set(name, value);
        }
        let outcome = match &sent {
            Some(b) => req.send_string(b),
            None => req.call(),
        };
        let (status, status_text, text, retry_after) = match outcome {
            Ok(resp) => (
                resp.status(),
                String::new(),
                read_body(resp, &self.name)?,
                None,
            ),
            Err(ureq::Error::Status(code, resp)) => {
                let retry_after = resp.header("Retry-After").map(str::to_string);
                let status_text = resp.status_text().to_string();
                (
                    code,
                    status_text,
                    read_body(resp, &self.name).unwrap_or_default(),
                    retry_after,
                )
            }
            Err(ureq::Error::Transport(t)) => return Err(self.unreachable(&t)),
        };
        self.judge(status, &status_text, &text, retry_after)
    }

    /// Judges an answer by the core's rules: the contract's reader for `ragweld`, else the
    /// mapping; an answer none of whose hits cites a page carries `no_page`, the reason.
    fn judge(
        &self,
        status: u16,
        status_text: &str,
        text: &str,
        retry_after: Option<String>,
    ) -> Result<Answer, ApiError> {
        let failed = |f: AnswerFailure| -> ApiError {
            let retryable = f.retryable();
            let detail = format!("{}: {}", self.name, self.secrets.redact(&f.to_string()));
            let mut e = ApiError::new(StatusCode::BAD_GATEWAY, "deployment_failed", detail);
            e.extra = Some(serde_json::json!({
                "status": status,
                "retryable": retryable,
                "retry_after": retry_after.as_deref().and_then(|v| v.trim().parse::<u32>().ok()),
            }));
            e
        };
        match &self.reader {
            None => {
                live::judge(status, status_text, text).map_err(failed)?;
                Ok((StatusCode::OK, self.secrets.redact(text)))
            }
            Some(reader) => {
                let answer = live::judge_mapped(reader, &self.secrets, status, status_text, text)
                    .map_err(failed)?;
                let body = answer.ragweld_body(&self.stated).ok_or_else(|| {
                    ApiError::new(
                        StatusCode::BAD_GATEWAY,
                        "deployment_failed",
                        format!("{}: the answer's hits could not be read", self.name),
                    )
                })?;
                let pages = &answer.pages;
                if pages.hits > 0 && pages.without_page == pages.hits {
                    let mut v: serde_json::Value = serde_json::from_str(&body)
                        .map_err(|e| ApiError::bad_request(e.to_string()))?;
                    v["no_page"] = reader.no_page_reason(pages).into();
                    return Ok((StatusCode::OK, self.secrets.redact(&v.to_string())));
                }
                Ok((StatusCode::OK, self.secrets.redact(&body)))
            }
        }
    }

    /// The error of a deployment that gave no answer: named, never with its URL or headers.
    fn unreachable(&self, t: &ureq::Transport) -> ApiError {
        let cause = io_cause(t);
        let timed_out = matches!(
            cause.as_ref().map(std::io::Error::kind),
            Some(std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock)
        );
        let words = cause.map_or_else(|| format!("{:?}", t.kind()), |e| e.kind().to_string());
        let (status, error, detail) = if timed_out {
            (
                StatusCode::GATEWAY_TIMEOUT,
                "deployment_timeout",
                format!(
                    "{}: no answer within {} s",
                    self.name,
                    self.timeout.as_secs_f64()
                ),
            )
        } else {
            (
                StatusCode::BAD_GATEWAY,
                "deployment_unreachable",
                format!("cannot reach the deployment {}: {words}", self.name),
            )
        };
        let mut e = ApiError::new(status, error, detail);
        e.extra = Some(serde_json::json!({"status": null, "retryable": true, "retry_after": null}));
        e
    }
}

/// The I/O error under a transport failure, if any.
fn io_cause(t: &ureq::Transport) -> Option<std::io::Error> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(t);
    while let Some(e) = source {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            return Some(std::io::Error::new(io.kind(), io.kind().to_string()));
        }
        source = e.source();
    }
    None
}

/// An answer's body, at most the contract's 64 MiB, as UTF-8 text; a failure names the
/// deployment `name`.
fn read_body(resp: ureq::Response, name: &str) -> Result<String, ApiError> {
    let status = resp.status();
    let mut bytes = Vec::new();
    let limit = live::MAX_BODY_BYTES as u64;
    let read = resp.into_reader().take(limit + 1).read_to_end(&mut bytes);
    let fail = |detail: String, retryable: bool| {
        let mut e = ApiError::new(StatusCode::BAD_GATEWAY, "deployment_failed", detail);
        e.extra = Some(
            serde_json::json!({"status": status, "retryable": retryable, "retry_after": null}),
        );
        e
    };
    // A connection dropped mid-answer may be retried (contract §2.4); a body too large or not
    // text may not.
    read.map_err(|e| {
        fail(
            format!("{name}: reading the answer failed: {}", e.kind()),
            true,
        )
    })?;
    if bytes.len() as u64 > limit {
        return Err(fail(format!("{name}: {}", AnswerFailure::TooLarge), false));
    }
    String::from_utf8(bytes).map_err(|e| {
        fail(
            format!(
                "{name}: the answer is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
            false,
        )
    })
}
