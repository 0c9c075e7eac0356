//! Connectors: how to ask a deployment, and where its answer keeps its pages (contract §14).
//!
//! A [`Connector`] is data: a request template (method, URL, headers, JSON body with
//! `{{placeholders}}`) and a response mapping (JSON Pointers into the answer and into each hit,
//! and how the hit's page is numbered). It is read from JSON by [`Connector::parse`], which
//! lists every error with where and what, so the command line and the page read a connector
//! file identically. [`Connector::preset`] gives the built-in ones.
//!
//! The default, `ragweld`, is the contract's own dialect (§2, §3): it is read by the fast
//! reader of [`crate::response`], and nothing about a run with it changes. Every other
//! connector's answers are read by [`read::Reader`], a one-pass reader that descends only into
//! the keys its pointers name.

mod labels;
mod probe;
pub mod read;
mod template;

use std::fmt;

use serde_json::{Map, Value};

pub use labels::{LabelRange, LabelStyle, PageLabels};
pub use probe::probe_text;
pub use read::{AnswerPages, Hit, MappedAnswer, Reader, ReaderError};
pub use template::{Asked, Secrets, SecretsError};

/// The connector used when none is named.
pub(crate) const DEFAULT: &str = crate::request::DEFAULT_CONNECTOR;

/// The built-in connectors, by name, as their JSON files would be written.
pub(crate) const PRESETS: [(&str, &str); 9] = [
    ("ragweld", include_str!("presets/ragweld.json")),
    ("langserve", include_str!("presets/langserve.json")),
    ("hayhooks", include_str!("presets/hayhooks.json")),
    ("llamaindex", include_str!("presets/llamaindex.json")),
    ("elasticsearch", include_str!("presets/elasticsearch.json")),
    ("opensearch", include_str!("presets/opensearch.json")),
    ("qdrant", include_str!("presets/qdrant.json")),
    ("vespa", include_str!("presets/vespa.json")),
    ("vectara", include_str!("presets/vectara.json")),
];

/// A JSON Pointer (RFC 6901): `""` is the whole value, `/a/0/b~1c` the key `b/c` of the first
/// element of `a`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pointer {
    text: String,
    tokens: Vec<String>,
}

/// Why a text is not a JSON Pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointerError {
    /// It is not empty and does not start with `/`.
    NoLeadingSlash {
        /// The text given.
        text: String,
    },
    /// A `~` is followed by something other than `0` or `1`.
    BadTilde {
        /// The text given.
        text: String,
    },
}

impl fmt::Display for PointerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointerError::NoLeadingSlash { text } => write!(
                f,
                "{text:?} is not a JSON Pointer: it must be \"\" or start with \"/\" (e.g. \"/{text}\")"
            ),
            PointerError::BadTilde { text } => write!(
                f,
                "{text:?} is not a JSON Pointer: a ~ must be followed by 0 (for ~) or 1 (for /)"
            ),
        }
    }
}

impl std::error::Error for PointerError {}

impl Pointer {
    /// Reads a pointer, or says why `text` is not one.
    pub fn parse(text: &str) -> Result<Pointer, PointerError> {
        if text.is_empty() {
            return Ok(Pointer {
                text: String::new(),
                tokens: Vec::new(),
            });
        }
        let Some(rest) = text.strip_prefix('/') else {
            return Err(PointerError::NoLeadingSlash {
                text: text.to_string(),
            });
        };
        let mut tokens = Vec::new();
        for raw in rest.split('/') {
            let mut token = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c != '~' {
                    token.push(c);
                    continue;
                }
                match chars.next() {
                    Some('0') => token.push('~'),
                    Some('1') => token.push('/'),
                    _ => {
                        return Err(PointerError::BadTilde {
                            text: text.to_string(),
                        })
                    }
                }
            }
            tokens.push(token);
        }
        Ok(Pointer {
            text: text.to_string(),
            tokens,
        })
    }

    /// The pointer as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Its reference tokens, unescaped.
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.text.is_empty() {
            f.write_str("\"\" (the whole value)")
        } else {
            f.write_str(&self.text)
        }
    }
}

/// How a hit's page is numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbering {
    /// `"1"`: 1-based physical pages (the contract's own).
    OneBased,
    /// `"0"`: 0-based physical pages (pypdf's and LangChain's `page`): the page is the value + 1.
    ZeroBased,
    /// `"label"`: the printed page label (`"316"`, `"xii"`), mapped to its physical page
    /// through the PDF's page labels.
    Label,
}

impl Numbering {
    /// The name in a connector file.
    pub fn name(self) -> &'static str {
        match self {
            Numbering::OneBased => "1",
            Numbering::ZeroBased => "0",
            Numbering::Label => "label",
        }
    }
}

/// The HTTP method of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `POST` with the JSON body (the default).
    Post,
    /// `PUT` with the JSON body.
    Put,
    /// `GET`, without a body (its `body` must be `null`).
    Get,
}

impl Method {
    /// The method's name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Get => "GET",
        }
    }
}

/// How to ask: method, URL, headers and body, each a template (see `connector::template`).
#[derive(Debug, Clone, PartialEq)]
pub struct RequestTemplate {
    /// The method.
    pub method: Method,
    /// The URL template (`{{base_url}}/invoke`).
    pub url: String,
    /// Header names and value templates, in file order. Values may hold `{{env.NAME}}`.
    pub headers: Vec<(String, String)>,
    /// The body template: JSON whose strings may hold placeholders; `null` for `GET`.
    pub body: Value,
}

/// Where an answer keeps its hits, and each hit its pages and the rest.
#[derive(Debug, Clone, PartialEq)]
pub struct Mapping {
    /// The hits array, in the answer.
    pub hits: Pointer,
    /// The first cited page, in a hit.
    pub page_start: Pointer,
    /// The last cited page, in a hit; `None`: a one-page span.
    pub page_end: Option<Pointer>,
    /// How the pages are numbered.
    pub numbering: Numbering,
    /// The hit's kind, in a hit.
    pub chunk_kind: Option<Pointer>,
    /// The kinds that are figure chunks.
    pub figure_kinds: Vec<String>,
    /// The figure summary, in a hit.
    pub summary: Option<Pointer>,
    /// The chunk id, in a hit.
    pub chunk_id: Option<Pointer>,
    /// The chunk's text, in a hit.
    pub content: Option<Pointer>,
    /// The source file, in a hit.
    pub path: Option<Pointer>,
}

/// A connector: its name, how to ask, and where the answer keeps its pages.
#[derive(Debug, Clone, PartialEq)]
pub struct Connector {
    /// Its name (a preset's, or the file's `name`).
    pub name: String,
    /// How to ask.
    pub request: RequestTemplate,
    /// Where the answer keeps its pages.
    pub response: Mapping,
    /// Whether it is the built-in preset of this name (a file is never one).
    preset: bool,
}

/// One problem with a connector file: where (a JSON path such as `response.page_start`) and
/// what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectorError {
    /// Where: the key's path in the file, or `line L, column C` for a syntax error.
    pub at: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConnectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Every problem with a connector file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectorErrors(pub Vec<ConnectorError>);

impl fmt::Display for ConnectorErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(
            f,
            "{n} problem{} with the connector:",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.0 {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConnectorErrors {}

/// The keys a connector file may have, at each level.
const TOP_KEYS: [&str; 3] = ["name", "request", "response"];
const REQUEST_KEYS: [&str; 4] = ["method", "url", "headers", "body"];
const RESPONSE_KEYS: [&str; 10] = [
    "hits",
    "page_start",
    "page_end",
    "numbering",
    "chunk_kind",
    "figure_kinds",
    "summary",
    "chunk_id",
    "content",
    "path",
];

/// What a JSON value is, for messages.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Collects the errors of one connector file as it is read.
struct Check(Vec<ConnectorError>);

impl Check {
    fn err(&mut self, at: &str, message: impl Into<String>) {
        self.0.push(ConnectorError {
            at: at.to_string(),
            message: message.into(),
        });
    }

    fn unknown_keys(&mut self, at: &str, obj: &Map<String, Value>, known: &[&str]) {
        for k in obj.keys() {
            if !known.contains(&k.as_str()) {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                self.err(
                    &path,
                    format!("unknown key; the keys here are {}", known.join(", ")),
                );
            }
        }
    }

    /// A string at `obj[key]`; `None` (and an error when `required`) when absent or null.
    fn string<'v>(
        &mut self,
        at: &str,
        obj: &'v Map<String, Value>,
        key: &str,
        required: bool,
    ) -> Option<&'v str> {
        let path = format!("{at}.{key}");
        match obj.get(key) {
            None | Some(Value::Null) => {
                if required {
                    self.err(&path, "is required");
                }
                None
            }
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                self.err(&path, format!("must be a string, not {}", kind_of(other)));
                None
            }
        }
    }

    /// A pointer at `obj[key]`, checked.
    fn pointer(&mut self, obj: &Map<String, Value>, key: &str, required: bool) -> Option<Pointer> {
        let text = self.string("response", obj, key, required)?;
        match Pointer::parse(text) {
            Ok(p) => Some(p),
            Err(e) => {
                self.err(&format!("response.{key}"), e.to_string());
                None
            }
        }
    }
}

impl Connector {
    /// Reads a connector from its JSON text, listing every problem with where and what.
    pub fn parse(text: &str) -> Result<Connector, ConnectorErrors> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            ConnectorErrors(vec![ConnectorError {
                at: format!("line {}, column {}", e.line(), e.column()),
                message: format!("not valid JSON: {}", crate::describe::json_problem(&e)),
            }])
        })?;
        Connector::from_value(&value)
    }

    /// Reads a connector from a JSON value (see [`Connector::parse`]).
    pub fn from_value(value: &Value) -> Result<Connector, ConnectorErrors> {
        let mut c = Check(Vec::new());
        let Some(top) = value.as_object() else {
            c.err(
                "the connector",
                format!("must be a JSON object, not {}", kind_of(value)),
            );
            return Err(ConnectorErrors(c.0));
        };
        c.unknown_keys("", top, &TOP_KEYS);
        let name = match top.get("name") {
            None | Some(Value::Null) => "custom".to_string(),
            Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
            Some(Value::String(_)) => {
                c.err("name", "must not be empty");
                String::new()
            }
            Some(other) => {
                c.err("name", format!("must be a string, not {}", kind_of(other)));
                String::new()
            }
        };
        let request = match top.get("request") {
            Some(Value::Object(r)) => read_request(&mut c, r),
            None | Some(Value::Null) => {
                c.err("request", "is required (with at least url and body)");
                None
            }
            Some(other) => {
                c.err(
                    "request",
                    format!("must be an object, not {}", kind_of(other)),
                );
                None
            }
        };
        let response = match top.get("response") {
            Some(Value::Object(r)) => read_mapping(&mut c, r),
            None | Some(Value::Null) => {
                c.err(
                    "response",
                    "is required (with at least hits, page_start and numbering)",
                );
                None
            }
            Some(other) => {
                c.err(
                    "response",
                    format!("must be an object, not {}", kind_of(other)),
                );
                None
            }
        };
        match (request, response) {
            (Some(request), Some(response)) if c.0.is_empty() => Ok(Connector {
                name,
                request,
                response,
                preset: false,
            }),
            _ => Err(ConnectorErrors(c.0)),
        }
    }

    /// The built-in connector of this name, or `None`.
    pub fn preset(name: &str) -> Option<Connector> {
        let (_, text) = PRESETS.iter().find(|(n, _)| *n == name)?;
        let mut c = Connector::parse(text).expect("every preset is a valid connector");
        c.preset = true;
        Some(c)
    }

    /// The default connector, `ragweld`.
    pub fn ragweld() -> Connector {
        Connector::preset(DEFAULT).expect("the default preset exists")
    }

    /// The names of the presets, for messages.
    pub fn preset_names() -> Vec<&'static str> {
        PRESETS.iter().map(|(n, _)| *n).collect()
    }

    /// Whether this is the built-in `ragweld` preset, whose answers the contract's own fast
    /// reader reads ([`crate::response`]) and whose runs write exactly what they always did.
    pub fn is_ragweld(&self) -> bool {
        self.preset && self.name == DEFAULT
    }

    /// Whether this is a built-in preset.
    pub fn is_preset(&self) -> bool {
        self.preset
    }

    /// What a report states of the connector (`run.connector`) and the page's answers carry as
    /// `read_through`: [`Connector::record`] as [`stated`] words it.
    pub fn stated_record(&self) -> String {
        stated(&self.record())
    }

    /// What a capture records of the connector: a preset's name, or the whole connector with
    /// every header value replaced by `[redacted]` (a capture never holds a header value, nor
    /// the name of the variable it came from). Compared by `--resume`.
    pub fn record(&self) -> Value {
        if self.preset {
            return Value::String(self.name.clone());
        }
        let mut v = self.to_value();
        if let Some(headers) = v["request"]["headers"].as_object_mut() {
            for value in headers.values_mut() {
                *value = Value::String(REDACTED.to_string());
            }
        }
        v
    }

    /// The connector as its file would be written.
    pub fn to_value(&self) -> Value {
        let opt = |p: &Option<Pointer>| {
            p.as_ref()
                .map_or(Value::Null, |p| Value::String(p.as_str().to_string()))
        };
        let m = &self.response;
        let headers: Map<String, Value> = self
            .request
            .headers
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        serde_json::json!({
            "name": self.name,
            "request": {
                "method": self.request.method.name(),
                "url": self.request.url,
                "headers": headers,
                "body": self.request.body,
            },
            "response": {
                "hits": m.hits.as_str(),
                "page_start": m.page_start.as_str(),
                "page_end": opt(&m.page_end),
                "numbering": m.numbering.name(),
                "chunk_kind": opt(&m.chunk_kind),
                "figure_kinds": m.figure_kinds,
                "summary": opt(&m.summary),
                "chunk_id": opt(&m.chunk_id),
                "content": opt(&m.content),
                "path": opt(&m.path),
            }
        })
    }
}

/// What replaces a header value wherever figeval would otherwise show it.
pub(crate) const REDACTED: &str = "[redacted]";

fn read_request(c: &mut Check, r: &Map<String, Value>) -> Option<RequestTemplate> {
    c.unknown_keys("request", r, &REQUEST_KEYS);
    let method = match c.string("request", r, "method", false) {
        None => Some(Method::Post),
        Some(m) => match m.to_ascii_uppercase().as_str() {
            "POST" => Some(Method::Post),
            "PUT" => Some(Method::Put),
            "GET" => Some(Method::Get),
            _ => {
                c.err(
                    "request.method",
                    format!("must be POST, PUT or GET, not {m:?}"),
                );
                None
            }
        },
    };
    let url = c.string("request", r, "url", true).map(str::to_string);
    if let Some(u) = &url {
        template::check_string(c, "request.url", u, template::Place::Url);
        if !(u.starts_with("{{base_url}}") || u.starts_with("http://") || u.starts_with("https://"))
        {
            c.err(
                "request.url",
                format!("must start with {{{{base_url}}}}, http:// or https://, not {u:?}"),
            );
        }
    }
    let mut headers = Vec::new();
    match r.get("headers") {
        None | Some(Value::Null) => {}
        Some(Value::Object(h)) => {
            for (name, value) in h {
                let at = format!("request.headers.{name}");
                if name.is_empty() || !name.bytes().all(|b| b.is_ascii_graphic() && b != b':') {
                    c.err(&at, "is not a valid header name");
                }
                match value {
                    Value::String(s) => {
                        template::check_string(c, &at, s, template::Place::Header);
                        headers.push((name.clone(), s.clone()));
                    }
                    other => c.err(&at, format!("must be a string, not {}", kind_of(other))),
                }
            }
        }
        Some(other) => c.err(
            "request.headers",
            format!(
                "must be an object of header names and values, not {}",
                kind_of(other)
            ),
        ),
    }
    let body = match r.get("body") {
        None => {
            c.err("request.body", "is required (null for GET)");
            None
        }
        Some(b) => {
            template::check_body(c, "request.body", b);
            Some(b.clone())
        }
    };
    match (method, &body) {
        (Some(Method::Get), Some(b)) if !b.is_null() => {
            c.err("request.body", "must be null for GET (a GET sends no body)")
        }
        (Some(Method::Post | Method::Put), Some(b)) if !(b.is_object() || b.is_array()) => c.err(
            "request.body",
            format!("must be a JSON object or array, not {}", kind_of(b)),
        ),
        _ => {}
    }
    Some(RequestTemplate {
        method: method?,
        url: url?,
        headers,
        body: body?,
    })
}

fn read_mapping(c: &mut Check, r: &Map<String, Value>) -> Option<Mapping> {
    c.unknown_keys("response", r, &RESPONSE_KEYS);
    let hits = c.pointer(r, "hits", true);
    let page_start = c.pointer(r, "page_start", true);
    let page_end = c.pointer(r, "page_end", false);
    let numbering = match r.get("numbering") {
        Some(Value::String(s)) if s == "1" => Some(Numbering::OneBased),
        Some(Value::String(s)) if s == "0" => Some(Numbering::ZeroBased),
        Some(Value::String(s)) if s == "label" => Some(Numbering::Label),
        None | Some(Value::Null) => {
            c.err(
                "response.numbering",
                "is required: \"1\" (1-based pages), \"0\" (0-based pages) or \"label\" (printed page labels)",
            );
            None
        }
        Some(other) => {
            c.err(
                "response.numbering",
                format!("must be \"1\", \"0\" or \"label\", not {other}"),
            );
            None
        }
    };
    let chunk_kind = c.pointer(r, "chunk_kind", false);
    let figure_kinds = match r.get("figure_kinds") {
        None | Some(Value::Null) => vec!["figure".to_string()],
        Some(Value::Array(a)) => {
            let mut kinds = Vec::new();
            for (i, k) in a.iter().enumerate() {
                match k {
                    Value::String(s) => kinds.push(s.clone()),
                    other => c.err(
                        &format!("response.figure_kinds[{i}]"),
                        format!("must be a string, not {}", kind_of(other)),
                    ),
                }
            }
            kinds
        }
        Some(other) => {
            c.err(
                "response.figure_kinds",
                format!("must be an array of strings, not {}", kind_of(other)),
            );
            Vec::new()
        }
    };
    let summary = c.pointer(r, "summary", false);
    let chunk_id = c.pointer(r, "chunk_id", false);
    let content = c.pointer(r, "content", false);
    let path = c.pointer(r, "path", false);
    Some(Mapping {
        hits: hits?,
        page_start: page_start?,
        page_end,
        numbering: numbering?,
        chunk_kind,
        figure_kinds,
        summary,
        chunk_id,
        content,
        path,
    })
}

/// What a report states of a connector whose capture record is `record`
/// ([`Connector::record`]): a preset's name as it is, a mapping as its JSON text (contract
/// §14.4).
pub fn stated(record: &Value) -> String {
    match record {
        Value::String(name) => name.clone(),
        mapping => mapping.to_string(),
    }
}

#[cfg(test)]
mod tests;
