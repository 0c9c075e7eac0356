//! `figeval push` and `figeval compare --baseline-from`: the command line as a client of
//! `figeval serve` (contract §15.8). The token comes from `FIGEVAL_TOKEN`, never a flag (a
//! flag would be in the shell's history and the process list).

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use figeval::Report;
use serde_json::value::RawValue;

use crate::compare_cmd::Labeled;
use crate::fail::{Failure, Outcome};
use crate::files;

/// The variable the token is read from.
pub const TOKEN_VAR: &str = "FIGEVAL_TOKEN";

/// The most bytes of a server's answer read.
const MAX_ANSWER: u64 = 1 << 30;

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout_connect(Duration::from_secs(30))
        .timeout(Duration::from_secs(600))
        .redirects(0)
        .build()
}

/// `--server`'s base, without a trailing `/`.
fn base(server: &str) -> Result<String, Failure> {
    figeval::live::check_base_url(server).map_err(|_| {
        Failure::Input(format!(
            "--server {server:?} must be http:// or https:// with a host"
        ))
    })
}

fn with_token(req: ureq::Request) -> ureq::Request {
    match std::env::var(TOKEN_VAR) {
        Ok(t) if !t.trim().is_empty() => req.set("Authorization", &format!("Bearer {}", t.trim())),
        _ => req,
    }
}

/// What a server's error answer says: its `detail`, else the start of its body.
fn refusal(what: &str, code: u16, resp: ureq::Response) -> Failure {
    let mut body = String::new();
    let _ = resp.into_reader().take(64 * 1024).read_to_string(&mut body);
    let detail = serde_json::from_str::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("detail").and_then(|d| d.as_str()).map(str::to_string))
        .unwrap_or_else(|| figeval::live::quote_body(&body));
    let hint = match code {
        401 => format!(" (set {TOKEN_VAR} to a token of this server)"),
        _ => String::new(),
    };
    let message = format!("{what}: the server answered HTTP {code}: {detail}{hint}");
    // The server refused what was sent (exit 2); it failed to keep it (exit 4).
    if code >= 500 {
        Failure::Output(message)
    } else {
        Failure::Input(message)
    }
}

fn transport(what: &str, server: &str, t: ureq::Transport) -> Failure {
    Failure::Output(format!("{what}: cannot reach the server {server}: {t}"))
}

fn read_json<T: serde::de::DeserializeOwned>(
    what: &str,
    resp: ureq::Response,
) -> Result<T, Failure> {
    let mut text = String::new();
    resp.into_reader()
        .take(MAX_ANSWER)
        .read_to_string(&mut text)
        .map_err(|e| Failure::Output(format!("{what}: reading the server's answer failed: {e}")))?;
    serde_json::from_str(&text).map_err(|e| {
        Failure::Output(format!(
            "{what}: the server's answer is not what it should be: {e}"
        ))
    })
}

/// A stored run as `GET /api/runs/{id}` gives it: the report's text kept as sent.
#[derive(serde::Deserialize)]
struct StoredRun {
    name: String,
    report: Box<RawValue>,
}

/// `figeval push REPORT --server URL [--name N] [--label k=v]… [--capture FILE]`: prints the
/// run's short link.
pub fn push(
    report: &Path,
    server: &str,
    name: Option<&str>,
    labels: &[(String, String)],
    capture: Option<&Path>,
) -> Outcome {
    let base = base(server)?;
    let text = files::read_text(report)?;
    // Checked here first: a report the server would refuse is refused without a request.
    Report::parse(&text).map_err(|e| Failure::Input(format!("{}: {e}", report.display())))?;
    let raw = RawValue::from_string(text)
        .map_err(|e| Failure::Input(format!("{}: {e}", report.display())))?;
    let mut body = serde_json::Map::new();
    body.insert(
        "report".into(),
        serde_json::to_value(&raw).map_err(|e| Failure::Input(e.to_string()))?,
    );
    if let Some(n) = name {
        body.insert("name".into(), n.into());
    }
    if !labels.is_empty() {
        let map: serde_json::Map<String, serde_json::Value> = labels
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into()))
            .collect();
        body.insert("labels".into(), map.into());
    }
    if let Some(c) = capture {
        body.insert("capture".into(), files::read_text(c)?.into());
    }
    let what = format!("push {}", report.display());
    let req = with_token(agent().post(&format!("{base}/api/runs")))
        .set("Content-Type", "application/json");
    let answer: serde_json::Value =
        match req.send_string(&serde_json::Value::Object(body).to_string()) {
            Ok(resp) => read_json(&what, resp)?,
            Err(ureq::Error::Status(code, resp)) => return Err(refusal(&what, code, resp)),
            Err(ureq::Error::Transport(t)) => return Err(transport(&what, &base, t)),
        };
    let url = answer["url"].as_str().unwrap_or_default();
    eprintln!(
        "figeval: pushed {:?} as run {} (dataset {})",
        answer["name"].as_str().unwrap_or_default(),
        answer["id"].as_str().unwrap_or_default(),
        answer["dataset"].as_str().unwrap_or_default()
    );
    if let Some(notes) = answer["notes"].as_array() {
        for n in notes.iter().filter_map(|n| n.as_str()) {
            eprintln!("figeval: note: {n}");
        }
    }
    println!("{url}");
    Ok(ExitCode::SUCCESS)
}

/// `--label k=v`.
pub fn parse_label(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("--label {s:?} is not KEY=VALUE"))?;
    if k.is_empty() || k.contains(':') {
        return Err(format!("--label {s:?}: a key is not empty and has no ':'"));
    }
    Ok((k.to_string(), v.to_string()))
}

/// `--baseline-from 'URL?FILTERS'`: the newest stored run matching the filters, as the
/// baseline. Without a `dataset` filter, the first report's dataset key is added, so the
/// baseline is a run of the same questions.
pub fn baseline(from: &str, after: &Report) -> Result<Labeled, Failure> {
    let (server, query) = from.split_once('?').unwrap_or((from, ""));
    let base = base(server)?;
    let mut query: Vec<String> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("limit=") && !p.starts_with("cursor="))
        .map(str::to_string)
        .collect();
    if !query.iter().any(|p| p.starts_with("dataset=")) {
        query.push(format!("dataset={}", after.dataset_key()));
    }
    query.push("limit=1".into());
    let what = format!("--baseline-from {from}");
    let list_url = format!("{base}/api/runs?{}", query.join("&"));
    let listing: serde_json::Value = match with_token(agent().get(&list_url)).call() {
        Ok(resp) => read_json(&what, resp)?,
        Err(ureq::Error::Status(code, resp)) => return Err(refusal(&what, code, resp)),
        Err(ureq::Error::Transport(t)) => return Err(transport(&what, &base, t)),
    };
    let Some(run) = listing["runs"].as_array().and_then(|r| r.first()) else {
        return Err(Failure::Input(format!(
            "{what}: no stored run matches {}",
            query[..query.len() - 1].join("&")
        )));
    };
    let id = run["id"].as_str().unwrap_or_default();
    if !figeval_server::secret::is_run_id(id) {
        return Err(Failure::Output(format!(
            "{what}: the server listed a run without an id"
        )));
    }
    let got: StoredRun = match with_token(agent().get(&format!("{base}/api/runs/{id}"))).call() {
        Ok(resp) => read_json(&what, resp)?,
        Err(ureq::Error::Status(code, resp)) => return Err(refusal(&what, code, resp)),
        Err(ureq::Error::Transport(t)) => return Err(transport(&what, &base, t)),
    };
    let report = Report::parse(got.report.get())
        .map_err(|e| Failure::Input(format!("{what}: the stored run {id}: {e}")))?;
    Ok(Labeled {
        label: format!("{} ({base}/r/{id})", got.name),
        report,
    })
}
