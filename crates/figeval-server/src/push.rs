//! What `POST /api/runs` stores (contract §15.2): a report, checked by the core's
//! `Report::parse`, or a capture and its dataset, scored here by the core exactly as
//! `figeval score` scores them. CPU work: the handler runs it off the async threads.

use std::time::Instant;

use figeval::connector::Reader;
use figeval::{CaptureReader, Connector, Dataset, Pairing, Report, RunInfo, ScoreConfig};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::clock;
use crate::error::ApiError;
use crate::store::runs::Labels;

/// The longest run name, in characters.
pub const MAX_NAME: usize = 200;
/// The most labels a run carries.
pub const MAX_LABELS: usize = 32;
/// The longest label key, in characters.
pub const MAX_LABEL_KEY: usize = 64;
/// The longest label value, in characters.
pub const MAX_LABEL_VALUE: usize = 256;

/// The body of `POST /api/runs`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushBody {
    /// A report, as `figeval run` or `score` writes it.
    report: Option<Box<RawValue>>,
    /// A capture (any form `figeval score` reads), as text: stored beside a report, or
    /// scored against `dataset`.
    capture: Option<String>,
    /// The dataset to score `capture` against (without `report`).
    dataset: Option<Box<RawValue>>,
    /// How `capture`'s answers are read: a preset's name or a connector object (§14.1).
    connector: Option<serde_json::Value>,
    /// Scoring `capture`: the widest precise span (default 3).
    max_precise_span_pages: Option<u32>,
    /// Scoring `capture`: items without a response go unscored instead of refusing it.
    #[serde(default)]
    allow_missing: bool,
    /// The run's name.
    pub name: Option<String>,
    /// The run's labels.
    pub labels: Option<Labels>,
}

/// A push, checked and ready to store.
pub struct Prepared {
    /// The report's text (as pushed, or as the server scored it).
    pub report_text: String,
    /// The report.
    pub report: Report,
    /// The run's name: the push's, else the report's `run.name`, else its source and time.
    pub name: String,
    /// The labels.
    pub labels: Labels,
    /// The capture's text, to store compressed.
    pub capture: Option<String>,
    /// What the server noticed and the pusher should know (a cut-off last line).
    pub notes: Vec<String>,
}

/// Reads and checks a push body.
pub fn prepare(body: &[u8]) -> Result<Prepared, ApiError> {
    let push: PushBody = serde_json::from_slice(body).map_err(|e| {
        let kind = if e.is_data() {
            "bad_request"
        } else {
            "not_json"
        };
        ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            kind,
            format!(
                "the body is not a push (line {}, column {}): {e}",
                e.line(),
                e.column()
            )
            .replace(&format!(" at line {} column {}", e.line(), e.column()), ""),
        )
    })?;
    let labels = check_labels(push.labels.clone().unwrap_or_default())?;
    if let Some(n) = &push.name {
        check_name(n)?;
    }
    let mut notes = Vec::new();
    let (report_text, report) = match (&push.report, &push.dataset) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "give either \"report\" or \"capture\" with its \"dataset\", not both",
            ))
        }
        (Some(raw), None) => {
            if push.connector.is_some() || push.max_precise_span_pages.is_some() {
                return Err(ApiError::bad_request(
                    "\"connector\" and \"max_precise_span_pages\" score a capture against its \
                     \"dataset\"; a pushed report is already scored",
                ));
            }
            let text = raw.get().to_string();
            let report =
                Report::parse(&text).map_err(|e| ApiError::refused(format!("report: {e}")))?;
            (text, report)
        }
        (None, Some(dataset)) => {
            let Some(capture) = &push.capture else {
                return Err(ApiError::bad_request(
                    "\"dataset\" comes with the \"capture\" to score against it",
                ));
            };
            let report = score(&push, dataset.get(), capture, &mut notes)?;
            let text = serde_json::to_string(&report)
                .map_err(|e| ApiError::refused(format!("the report cannot be written: {e}")))?;
            (text, report)
        }
        (None, None) => {
            return Err(ApiError::bad_request(
                "a push holds a \"report\", or a \"capture\" and its \"dataset\"",
            ))
        }
    };
    if let Some(w) = report.unchecked_warning() {
        return Err(ApiError::refused(format!(
            "report: {w}; the server stores only reports it can check"
        )));
    }
    let name = match &push.name {
        Some(n) => n.clone(),
        None => default_name(&report_text, &report),
    };
    Ok(Prepared {
        report_text,
        report,
        name,
        labels,
        capture: push.capture,
        notes,
    })
}

/// Scores `capture` against `dataset` as `figeval score` does.
fn score(
    push: &PushBody,
    dataset: &str,
    capture: &str,
    notes: &mut Vec<String>,
) -> Result<Report, ApiError> {
    let started_at = clock::now_rfc3339();
    let clock = Instant::now();
    let dataset =
        Dataset::parse(dataset).map_err(|e| ApiError::refused(format!("dataset: {e}")))?;
    let connector = match &push.connector {
        None => None,
        Some(serde_json::Value::String(name)) => {
            Some(Connector::preset(name).ok_or_else(|| {
                ApiError::refused(format!(
                    "connector: {name:?} is not a preset ({})",
                    Connector::preset_names().join(", ")
                ))
            })?)
        }
        Some(v) => Some(
            Connector::from_value(v).map_err(|e| ApiError::refused(format!("connector: {e}")))?,
        ),
    }
    .filter(|c| !c.is_ragweld());
    let reader = connector
        .as_ref()
        .map(|c| Reader::new(c, None))
        .transpose()
        .map_err(|e| ApiError::refused(format!("connector: {e}")))?;
    let record = connector.as_ref().map(|c| c.record().to_string());
    let config = ScoreConfig {
        max_precise_span_pages: push.max_precise_span_pages.unwrap_or(3).max(1),
    };
    let mut pairing = Pairing::new(&dataset, config);
    pairing.skip_content();
    if let (Some(reader), Some(record)) = (&reader, record) {
        pairing.read_through(reader, record);
    }
    let read = CaptureReader::read_str(pairing, capture);
    if let Some(cut) = read.cut_off {
        notes.push(format!("capture: {cut}"));
    }
    let scored = read
        .pairing
        .finish(push.allow_missing)
        .map_err(|e| ApiError::refused(format!("capture: {e}")))?;
    Ok(Report::build(
        scored,
        RunInfo {
            started_at: Some(started_at),
            duration_s: clock.elapsed().as_secs_f64(),
            source: "capture pushed to figeval serve".into(),
            ..RunInfo::default()
        },
    ))
}

/// A run's name when the push gives none: the report's `run.name` (read leniently: a report
/// without one, or with one that is not text, has none), else its source and start.
fn default_name(text: &str, report: &Report) -> String {
    #[derive(Deserialize)]
    struct Named {
        run: Option<RunName>,
    }
    #[derive(Deserialize)]
    struct RunName {
        name: Option<serde_json::Value>,
    }
    let stated = serde_json::from_str::<Named>(text)
        .ok()
        .and_then(|n| n.run)
        .and_then(|r| r.name)
        .and_then(|v| v.as_str().map(str::trim).map(str::to_string))
        .filter(|n| !n.is_empty() && check_name(n).is_ok());
    if let Some(n) = stated {
        return n;
    }
    let source = report.run.source.trim();
    match (source.is_empty(), &report.run.started_at) {
        (false, Some(at)) => format!("{source}, {at}"),
        (false, None) => source.to_string(),
        (true, Some(at)) => format!("run of {at}"),
        (true, None) => "unnamed run".to_string(),
    }
}

/// A name is 1 to [`MAX_NAME`] characters, without control characters.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let n = name.chars().count();
    if name.trim().is_empty() || n > MAX_NAME {
        return Err(ApiError::bad_request(format!(
            "a run's name is 1 to {MAX_NAME} characters (this one has {n})"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "a run's name holds a control character",
        ));
    }
    Ok(())
}

/// Labels: at most [`MAX_LABELS`]; a key of 1 to [`MAX_LABEL_KEY`] characters without `:`
/// (filters read `label=KEY:VALUE`), a value of at most [`MAX_LABEL_VALUE`]; no control
/// characters.
pub fn check_labels(labels: Labels) -> Result<Labels, ApiError> {
    if labels.len() > MAX_LABELS {
        return Err(ApiError::bad_request(format!(
            "a run carries at most {MAX_LABELS} labels (these are {})",
            labels.len()
        )));
    }
    for (k, v) in &labels {
        let kn = k.chars().count();
        if kn == 0 || kn > MAX_LABEL_KEY || k.contains(':') {
            return Err(ApiError::bad_request(format!(
                "label key {k:?}: a key is 1 to {MAX_LABEL_KEY} characters without ':'"
            )));
        }
        if v.chars().count() > MAX_LABEL_VALUE {
            return Err(ApiError::bad_request(format!(
                "label {k:?}: a value is at most {MAX_LABEL_VALUE} characters"
            )));
        }
        if k.chars().chain(v.chars()).any(char::is_control) {
            return Err(ApiError::bad_request(format!(
                "label {k:?}: a control character in its key or value"
            )));
        }
    }
    Ok(labels)
}

/// Compresses stored text (zlib, the fastest level: reports and captures shrink about
/// tenfold).
pub fn compress(text: &str) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(text.as_bytes(), 1)
}

/// The text of stored bytes.
pub fn decompress(bytes: &[u8]) -> Result<String, ApiError> {
    let broken = |what: String| {
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "store_failed",
            format!("the store holds damaged text: {what}"),
        )
    };
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib(bytes)
        .map_err(|e| broken(format!("{:?}", e.status)))?;
    String::from_utf8(raw).map_err(|e| broken(e.to_string()))
}
