//! Shared by the integration tests: the real Octave manual, and in-process servers on 127.0.0.1:0.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use refsearch::{AppState, Chunking, Corpus, CorpusOptions, FigureNote};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The corpus id the test servers serve.
pub const CORPUS_ID: &str = testkit::manual::CORPUS_ID;

/// Physical pages of the GNU Octave 7.3.0 manual.
pub const MANUAL_PAGES: usize = testkit::manual::PAGES;

/// `Figure N.M:` captions in the manual.
pub const MANUAL_FIGURES: usize = 29;

/// The manual's path (`FIGEVAL_OCTAVE_PDF`, checked once); a missing or different manual fails
/// the test (it never skips).
pub fn manual_pdf() -> PathBuf {
    testkit::manual::require().to_path_buf()
}

/// The manual's page text, extracted once per test binary.
pub fn manual_pages() -> &'static [String] {
    static PAGES: OnceLock<Vec<String>> = OnceLock::new();
    PAGES.get_or_init(|| {
        refsearch::extract::extract_pages(&manual_pdf())
            .unwrap_or_else(|err| panic!("cannot extract the manual's text: {err}"))
    })
}

/// The colleague-written notes for the manual's figures, in the repository.
pub fn repo_figure_notes() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/corpora/octave-manual/figure-notes.json")
}

/// This crate's own small notes file.
pub fn fixture_figure_notes() -> Vec<FigureNote> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/figure-notes.json");
    refsearch::figures::load_notes(&path).unwrap_or_else(|err| panic!("{err}"))
}

/// Options for the manual.
pub fn options(chunking: Chunking, figures: bool, notes: Vec<FigureNote>) -> CorpusOptions {
    CorpusOptions {
        corpus_id: CORPUS_ID.into(),
        chunking,
        figures,
        notes,
    }
}

/// A server running in this test's runtime, on 127.0.0.1 with a free port.
pub struct TestServer {
    /// `http://127.0.0.1:<port>/api`.
    pub base: String,
    /// A client for it.
    pub client: reqwest::Client,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    /// Indexes the manual with `options` and serves it.
    pub async fn start(options: CorpusOptions) -> TestServer {
        TestServer::start_with_latency(options, Duration::ZERO).await
    }

    /// Same, with a fixed per-search delay.
    pub async fn start_with_latency(options: CorpusOptions, latency: Duration) -> TestServer {
        let corpus = Corpus::build(manual_pages(), &options).unwrap_or_else(|err| panic!("{err}"));
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local addr");
        assert!(addr.ip().is_loopback());
        let (tx, rx) = oneshot::channel::<()>();
        let state = Arc::new(AppState { corpus, latency });
        let task = tokio::spawn(refsearch::serve(listener, state, async {
            let _ = rx.await;
        }));
        TestServer {
            base: format!("http://{addr}/api"),
            client: reqwest::Client::new(),
            shutdown: Some(tx),
            task: Some(task),
        }
    }

    /// `POST /api/search` with a raw JSON body; returns status and parsed body.
    pub async fn post_json(&self, body: &Value) -> (u16, Value) {
        self.post_raw(body.to_string()).await
    }

    /// `POST /api/search` with any body text.
    pub async fn post_raw(&self, body: String) -> (u16, Value) {
        let response = self
            .client
            .post(format!("{}/search", self.base))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("search request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|err| panic!("body is not JSON ({err}): {text}"));
        (status, value)
    }

    /// A successful search for `query`; returns its `matches`.
    pub async fn search(&self, query: &str, top_k: u32) -> Vec<Value> {
        let body = serde_json::json!({
            "query": query, "repo_id": CORPUS_ID, "top_k": top_k, "cache_mode": "bypass"
        });
        let (status, value) = self.post_json(&body).await;
        assert_eq!(status, 200, "{value}");
        value["matches"].as_array().cloned().expect("matches array")
    }

    /// `GET /api/health`.
    pub async fn health(&self) -> Value {
        let response = self
            .client
            .get(format!("{}/health", self.base))
            .send()
            .await
            .expect("health request");
        assert_eq!(response.status().as_u16(), 200);
        response.json().await.expect("health JSON")
    }

    /// Stops the server and waits for it to finish.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let result = tokio::time::timeout(Duration::from_secs(10), task)
                .await
                .expect("server stops within 10 s");
            result
                .expect("server task")
                .expect("server ran without error");
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        // A failed assertion skips `stop`; make sure the server still goes away.
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

/// `(page_start, page_end)` of a match.
pub fn pages_of(m: &Value) -> (u64, u64) {
    let provenance = &m["provenance"];
    (
        provenance["page_start"].as_u64().expect("page_start"),
        provenance["page_end"].as_u64().expect("page_end"),
    )
}

/// The text `pdftotext` prints for one page on its own, form feed removed.
pub fn pdftotext_single_page(page: usize) -> String {
    let output = std::process::Command::new("pdftotext")
        .args([
            "-layout",
            "-enc",
            "UTF-8",
            "-f",
            &page.to_string(),
            "-l",
            &page.to_string(),
        ])
        .arg(manual_pdf())
        .arg("-")
        .output()
        .expect("pdftotext runs (install poppler-utils)");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.strip_suffix('\u{c}').unwrap_or(&text).to_owned()
}
