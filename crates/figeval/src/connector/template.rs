//! The request templates of a connector: `{{placeholders}}` in its URL, headers and body.
//!
//! The placeholders are `{{question}}`, `{{corpus_id}}`, `{{top_k}}`, `{{cache_mode}}`,
//! `{{base_url}}` and `{{env.NAME}}`. A body string that is exactly `"{{top_k}}"` becomes a
//! number; every other substitution in the body is a JSON string's text (the body is built as
//! JSON, so it is escaped by construction). In the URL every value but `{{base_url}}` is
//! percent-encoded. `{{env.NAME}}` is allowed in header values only, so a secret can reach
//! neither a URL (which messages and reports quote) nor a body (which a capture could echo).

use std::fmt;

use serde_json::Value;

use super::{Check, Connector, Method, REDACTED};
use crate::request::CacheMode;

/// Where a template is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    Url,
    Header,
    Body,
}

/// The names a placeholder may have (besides `env.NAME`).
const NAMES: [&str; 5] = ["question", "corpus_id", "top_k", "cache_mode", "base_url"];

/// One piece of a template string.
enum Piece<'a> {
    Text(&'a str),
    Var(&'a str),
}

/// Splits a template into text and placeholders; `Err` names an unclosed `{{`.
fn pieces(s: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(open) = rest.find("{{") {
        if open > 0 {
            out.push(Piece::Text(&rest[..open]));
        }
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            return Err(format!("{s:?} has a `{{{{` that no `}}}}` closes"));
        };
        out.push(Piece::Var(&after[..close]));
        rest = &after[close + 2..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    Ok(out)
}

/// Whether `name` is an environment variable's name: letters, digits and `_`, not starting
/// with a digit.
fn is_env_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Checks a template string: every placeholder known, `env.NAME` only in headers.
pub(crate) fn check_string(c: &mut Check, at: &str, s: &str, place: Place) {
    let pieces = match pieces(s) {
        Ok(p) => p,
        Err(e) => return c.err(at, e),
    };
    for piece in pieces {
        let Piece::Var(name) = piece else { continue };
        if let Some(env) = name.strip_prefix("env.") {
            if !is_env_name(env) {
                c.err(
                    at,
                    format!("{{{{{name}}}}}: {env:?} is not an environment variable's name"),
                );
            } else if place != Place::Header {
                c.err(
                    at,
                    format!(
                        "{{{{{name}}}}} is allowed only in a header value, so a secret never \
                         reaches a URL, a body or a capture"
                    ),
                );
            }
        } else if !NAMES.contains(&name) {
            c.err(
                at,
                format!(
                    "unknown placeholder {{{{{name}}}}}; the placeholders are {{{{question}}}}, \
                     {{{{corpus_id}}}}, {{{{top_k}}}}, {{{{cache_mode}}}}, {{{{base_url}}}} and \
                     {{{{env.NAME}}}} (in headers)"
                ),
            );
        }
    }
}

/// Checks every string of a body template, keys included.
pub(crate) fn check_body(c: &mut Check, at: &str, v: &Value) {
    match v {
        Value::String(s) => check_string(c, at, s, Place::Body),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                check_body(c, &format!("{at}[{i}]"), x);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                let here = format!("{at}.{k}");
                check_string(c, &here, k, Place::Body);
                check_body(c, &here, x);
            }
        }
        _ => {}
    }
}

/// What one search asks: the values of the placeholders.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    /// `{{base_url}}`: the deployment's base URL, without a trailing `/`.
    pub base_url: &'a str,
    /// `{{question}}`.
    pub question: &'a str,
    /// `{{corpus_id}}`: the dataset's corpus.
    pub corpus_id: &'a str,
    /// `{{top_k}}`.
    pub top_k: u32,
    /// `{{cache_mode}}`.
    pub cache_mode: CacheMode,
}

/// The header values a connector sends, resolved from the environment once, before the first
/// search; and the one place that knows them, so it can take them out of any text
/// ([`Secrets::redact`]).
#[derive(Clone, Default)]
pub struct Secrets {
    /// Each header's name and value.
    headers: Vec<(String, String)>,
    /// Every text to redact: the header values and the variables' values, longest first.
    hidden: Vec<String>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        write!(f, "Secrets({names:?}, values {REDACTED})")
    }
}

impl Secrets {
    /// The headers to send, names and values.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// `text` with every header value and every variable's value replaced by `[redacted]`:
    /// some deployments echo the credentials they refused.
    pub fn redact(&self, text: &str) -> String {
        if self.hidden.is_empty() {
            return text.to_string();
        }
        // One pass, longest value first at each position, so a replacement is never
        // itself rewritten.
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            match self.hidden.iter().find(|h| rest.starts_with(h.as_str())) {
                Some(h) => {
                    out.push_str(REDACTED);
                    rest = &rest[h.len()..];
                }
                None => {
                    out.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        out
    }
}

/// Percent-encodes `s` for a URL: every byte but RFC 3986's unreserved characters.
fn percent_encode(s: &str, out: &mut String) {
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

/// The value of a placeholder (`env.` ones excepted).
fn value_of(name: &str, asked: &Asked<'_>) -> String {
    match name {
        "question" => asked.question.to_string(),
        "corpus_id" => asked.corpus_id.to_string(),
        "top_k" => asked.top_k.to_string(),
        "cache_mode" => asked.cache_mode.name().to_string(),
        "base_url" => asked.base_url.to_string(),
        _ => String::new(),
    }
}

/// A checked template with its placeholders filled in; `encode` percent-encodes all but
/// `{{base_url}}`, `env` gives `{{env.NAME}}`.
fn fill(s: &str, asked: &Asked<'_>, encode: bool, env: &mut dyn FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(s.len() + 32);
    for piece in pieces(s).unwrap_or_default() {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Var(name) => {
                if let Some(var) = name.strip_prefix("env.") {
                    out.push_str(&env(var));
                } else if encode && name != "base_url" {
                    percent_encode(&value_of(name, asked), &mut out);
                } else {
                    out.push_str(&value_of(name, asked));
                }
            }
        }
    }
    out
}

fn fill_body(v: &Value, asked: &Asked<'_>) -> Value {
    let mut no_env = |_: &str| String::new();
    match v {
        Value::String(s) if s == "{{top_k}}" => Value::from(asked.top_k),
        Value::String(s) => Value::String(fill(s, asked, false, &mut no_env)),
        Value::Array(a) => Value::Array(a.iter().map(|x| fill_body(x, asked)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (fill(k, asked, false, &mut no_env), fill_body(x, asked)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Why a connector's header values cannot be resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretsError {
    /// A header sends `{{env.NAME}}` and the variable is not set, or is empty.
    Unset {
        /// The connector's name.
        connector: String,
        /// The header that sends it.
        header: String,
        /// The variable's name (never its value).
        variable: String,
    },
}

impl fmt::Display for SecretsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SecretsError::Unset {
                connector,
                header,
                variable,
            } => write!(
                f,
                "the connector {connector:?} sends the header {header} with \
                 {{{{env.{variable}}}}}, but the environment variable {variable} is not set (or \
                 is empty)"
            ),
        }
    }
}

impl std::error::Error for SecretsError {}

impl Connector {
    /// Resolves the header values from the environment (`lookup` gives a variable's value), once
    /// before the first search. An unset or empty variable is an error naming it and the
    /// header that needs it.
    pub fn secrets(
        &self,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Secrets, SecretsError> {
        let mut secrets = Secrets::default();
        let mut missing = None;
        let asked = Asked {
            base_url: "",
            question: "",
            corpus_id: "",
            top_k: 0,
            cache_mode: CacheMode::Bypass,
        };
        for (name, template) in &self.request.headers {
            let mut hidden = Vec::new();
            let value = fill(template, &asked, false, &mut |var| match lookup(var) {
                Some(v) if !v.is_empty() => {
                    hidden.push(v.clone());
                    v
                }
                _ => {
                    missing.get_or_insert_with(|| SecretsError::Unset {
                        connector: self.name.clone(),
                        header: name.clone(),
                        variable: var.to_string(),
                    });
                    String::new()
                }
            });
            secrets.hidden.extend(hidden);
            secrets.hidden.push(value.clone());
            secrets.headers.push((name.clone(), value));
        }
        if let Some(m) = missing {
            return Err(m);
        }
        secrets.hidden.retain(|h| !h.is_empty());
        secrets.hidden.sort_by_key(|h| std::cmp::Reverse(h.len()));
        secrets.hidden.dedup();
        Ok(secrets)
    }

    /// The URL of one search.
    pub fn url(&self, asked: &Asked<'_>) -> String {
        fill(&self.request.url, asked, true, &mut |_| String::new())
    }

    /// The body of one search (JSON text), `None` for a `GET`.
    pub fn body(&self, asked: &Asked<'_>) -> Option<String> {
        if self.request.method == Method::Get {
            return None;
        }
        Some(fill_body(&self.request.body, asked).to_string())
    }
}
