//! `figeval serve` under test: started on a free loopback port over a store of either kind,
//! its stderr kept (the log lines), stopped on drop; a small HTTP client; the stores.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{bin, repo_root};

/// The kind of store a test runs against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A SQLite file in the test's folder.
    Sqlite,
    /// A database of its own in the test binary's PostgreSQL cluster.
    Postgres,
}

/// A new, empty store of `kind`: its `--store` value.
pub fn new_store(kind: Kind, dir: &Path) -> String {
    match kind {
        Kind::Sqlite => format!("sqlite:{}", dir.join("runs.db").display()),
        Kind::Postgres => testkit::postgres::Cluster::shared().database("serve"),
    }
}

/// A stand-in for the built app: an `index.html` (the API tests need no page).
pub fn app_dir(dir: &Path) -> PathBuf {
    let app = dir.join("app");
    std::fs::create_dir_all(&app).expect("a temporary folder");
    std::fs::write(
        app.join("index.html"),
        "<!doctype html><title>figeval</title>\n",
    )
    .expect("a temporary folder");
    app
}

/// A running `figeval serve` (`testkit::serve::Served`).
pub use testkit::serve::Served;

/// Starts `figeval serve --listen 127.0.0.1:0 --store STORE --app APP EXTRA…` and waits until
/// it listens.
pub fn serve(store: &str, app: &Path, extra: &[&str]) -> Served {
    try_serve_with(store, app, extra, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// [`serve`], or what the server said before it exited.
pub fn try_serve(store: &str, app: &Path, extra: &[&str]) -> Result<Served, String> {
    try_serve_with(store, app, extra, &[])
}

/// [`try_serve`] with these environment variables set.
pub fn try_serve_with(
    store: &str,
    app: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Result<Served, String> {
    let mut command = testkit::serve::command(&bin("figeval"), store, app);
    command
        .args(extra)
        .envs(env.iter().copied())
        .current_dir(repo_root());
    Served::start(&mut command, true)
}

/// An answer: status, headers (lowercase names) and body.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status.
    pub status: u16,
    /// Each header, name lowercase.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

impl Answer {
    /// The body as JSON (a failure names the body).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Checks an error answer: this status, `{"error": CODE, "detail": …}` with `detail`
    /// holding `needle`.
    pub fn is_error(&self, status: u16, code: &str, needle: &str) {
        assert_eq!(self.status, status, "{}", self.body);
        let v = self.json();
        assert_eq!(v["error"], code, "{}", self.body);
        let detail = v["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(needle), "{needle:?} not in {detail:?}");
    }
}

/// One request: `headers` beside the token's `Authorization`; JSON bodies say so.
pub fn call(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> Answer {
    let agent = ureq::AgentBuilder::new()
        .redirects(0)
        .timeout(Duration::from_secs(120))
        .build();
    let mut req = agent.request(method, url);
    if let Some(t) = token {
        req = req.set("Authorization", &format!("Bearer {t}"));
    }
    if body.is_some() {
        req = req.set("Content-Type", "application/json");
    }
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let result = match body {
        Some(b) => req.send_string(b),
        None => req.call(),
    };
    let resp = match result {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = resp.status();
    let headers = resp
        .headers_names()
        .into_iter()
        .filter_map(|n| resp.header(&n).map(|v| (n.to_lowercase(), v.to_string())))
        .collect();
    let mut text = String::new();
    resp.into_reader()
        .read_to_string(&mut text)
        .expect("a UTF-8 body");
    Answer {
        status,
        headers,
        body: text,
    }
}

/// The report the test fixture's capture gives (`figeval score`), as text.
pub fn fixture_report(dir: &Path) -> String {
    let out = dir.join("fixture-report.json");
    let fx = repo_root().join("crates/figeval/tests/fixtures/deployment");
    crate::expect(&[
        "score",
        "--responses",
        &fx.join("capture.jsonl").to_string_lossy(),
        "--dataset",
        &fx.join("dataset.json").to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
    ])
    .exit(0);
    std::fs::read_to_string(out).expect("the report was written")
}

/// The fixture's capture and dataset, as text.
pub fn fixture_capture() -> (String, String) {
    let fx = repo_root().join("crates/figeval/tests/fixtures/deployment");
    (
        std::fs::read_to_string(fx.join("capture.jsonl")).expect("the fixture"),
        std::fs::read_to_string(fx.join("dataset.json")).expect("the fixture"),
    )
}

/// A push body of `report` with `name` and `labels`.
pub fn push_body(report: &str, name: &str, labels: &[(&str, &str)]) -> String {
    let labels: serde_json::Map<String, serde_json::Value> = labels
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
        .collect();
    format!(
        "{{\"report\": {report}, \"name\": {}, \"labels\": {}}}",
        serde_json::Value::from(name),
        serde_json::Value::Object(labels)
    )
}

/// Makes a token with `figeval serve token create`; the printed token (the last word).
pub fn create_token(store: &str, name: &str, scope: &str) -> String {
    let out = crate::expect(&[
        "serve", "token", "create", "--store", store, "--name", name, "--scope", scope,
    ]);
    out.exit(0);
    out.stdout()
        .split_whitespace()
        .last()
        .expect("the token is the last word")
        .to_string()
}
