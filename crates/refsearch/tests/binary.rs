//! The `refsearch` binary itself: startup lines, a real port, SIGTERM, loud startup failures.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::*;
use testkit::refsearch::Server;
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_refsearch");

fn refsearch(args: &[&str]) -> Command {
    let mut command = Command::new(BIN);
    command.args(args).stdin(Stdio::null()).kill_on_drop(true);
    command
}

/// Starts refsearch with `args` and waits until it listens; it is stopped when dropped.
fn started(args: &[&str]) -> Server {
    let mut command = std::process::Command::new(BIN);
    command.args(args);
    Server::start(&mut command, |_| {}).unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test]
async fn the_binary_prints_its_two_startup_lines_serves_the_real_port_and_stops_on_sigterm() {
    let pdf = manual_pdf();
    let pdf = pdf.to_str().unwrap();
    let mut server = started(&[
        "--pdf",
        pdf,
        "--corpus-id",
        CORPUS_ID,
        "--listen",
        "127.0.0.1:0",
        "--chunking",
        "section",
    ]);
    let lines = &server.lines;
    assert_eq!(lines.len(), 2, "{lines:?}");

    let indexed = lines[0]
        .strip_prefix("refsearch: indexed 1158 pages, ")
        .unwrap_or_else(|| panic!("first line: {}", lines[0]));
    let (chunks, rest) = indexed
        .split_once(" chunks (29 figures, chunking section) from ")
        .expect(&lines[0]);
    let chunks: usize = chunks.parse().expect("chunk count");
    let secs = rest
        .strip_prefix(pdf)
        .and_then(|r| r.strip_prefix(" in "))
        .and_then(|r| r.strip_suffix('s'));
    let secs: f64 = secs
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("first line: {}", lines[0]));
    assert!(secs > 0.0);

    let base = lines[1]
        .strip_prefix("refsearch: listening on http://")
        .and_then(|r| r.strip_suffix("/api"))
        .unwrap_or_else(|| panic!("second line: {}", lines[1]));
    let addr: std::net::SocketAddr = base.parse().expect("a socket address");
    assert!(addr.ip().is_loopback());
    assert_ne!(addr.port(), 0, "the real bound port is printed");

    let health: serde_json::Value = reqwest::get(format!("http://{addr}/api/health"))
        .await
        .expect("health")
        .json()
        .await
        .expect("health JSON");
    assert_eq!(health["chunks"], chunks);
    assert_eq!(health["chunking"], "section");

    let status = server
        .terminate(Duration::from_secs(15))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(status.success(), "graceful shutdown exits 0, got {status}");
}

/// The manual on a free port with `--figures <figures> --figure-notes <notes>`.
fn with_notes<'a>(pdf: &'a str, figures: &'a str, notes: &'a str) -> [&'a str; 10] {
    [
        "--pdf",
        pdf,
        "--corpus-id",
        CORPUS_ID,
        "--listen",
        "127.0.0.1:0",
        "--figures",
        figures,
        "--figure-notes",
        notes,
    ]
}

#[tokio::test]
async fn with_figures_off_the_figure_notes_are_checked_no_figure_chunk_is_built_and_stderr_says_so()
{
    let pdf = manual_pdf();
    let notes = repo_figure_notes();
    let notes = notes.to_str().unwrap();
    let server = started(&with_notes(pdf.to_str().unwrap(), "off", notes));
    let lines = &server.lines;
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].contains(" chunks (0 figures, chunking page) from "),
        "{}",
        lines[0]
    );
    let expected_notes = refsearch::figures::load_notes(&repo_figure_notes())
        .expect("the repository's notes load")
        .len();
    assert_eq!(
        expected_notes, MANUAL_FIGURES,
        "a note for every captioned figure"
    );
    assert_eq!(
        lines[1],
        format!(
            "refsearch: figures off: {expected_notes} figure notes in {notes} fit the PDF's captions; no figure chunk built"
        )
    );
    let base = lines[2]
        .strip_prefix("refsearch: listening on ")
        .unwrap_or_else(|| panic!("third line: {}", lines[2]));
    let health: serde_json::Value = reqwest::get(format!("{base}/health"))
        .await
        .expect("health")
        .json()
        .await
        .expect("health JSON");
    assert_eq!(health["figures"], 0);
    assert_eq!(health["figures_enabled"], false);
    let found: serde_json::Value = reqwest::Client::new()
        .post(format!("{base}/search"))
        .json(&serde_json::json!({"query": "Figure 15.1 Simple Two-Dimensional Plot", "repo_id": CORPUS_ID, "top_k": 100}))
        .send()
        .await
        .expect("search")
        .json()
        .await
        .expect("search JSON");
    let matches = found["matches"].as_array().expect("matches");
    assert!(!matches.is_empty());
    assert!(
        matches
            .iter()
            .all(|m| m["metadata"].get("chunk_kind").is_none()),
        "no figure chunk is served with figures off"
    );
    let pdf_name = pdf.file_name().map(|n| n.to_string_lossy().into_owned());
    assert!(
        matches
            .iter()
            .all(|m| m["file_path"].as_str() == pdf_name.as_deref()),
        "every match names the served PDF's file"
    );
}

async fn failed_startup(args: &[&str]) -> String {
    let output = tokio::time::timeout(Duration::from_secs(120), refsearch(args).output())
        .await
        .expect("refsearch exits")
        .expect("run refsearch");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        output.status.code(),
        Some(2),
        "bad input exits 2: {args:?}\n{stderr}"
    );
    stderr
}

#[tokio::test]
async fn a_missing_pdf_fails_startup_naming_the_path() {
    let stderr = failed_startup(&[
        "--pdf",
        "/nonexistent/manual.pdf",
        "--corpus-id",
        "x",
        "--listen",
        "127.0.0.1:0",
    ])
    .await;
    assert!(
        stderr.contains("refsearch: error: PDF not found: /nonexistent/manual.pdf"),
        "{stderr}"
    );
}

#[tokio::test]
async fn a_figure_note_on_the_wrong_page_fails_startup_naming_the_figure_with_figures_on_or_off() {
    let pdf = manual_pdf();
    let notes = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/wrong-page-notes.json");
    for figures in ["on", "off"] {
        let stderr = failed_startup(&with_notes(
            pdf.to_str().unwrap(),
            figures,
            notes.to_str().unwrap(),
        ))
        .await;
        assert!(
            stderr.contains("Figure 15.2") && stderr.contains("on page 337, not 338"),
            "figures {figures}: {stderr}"
        );
        assert!(
            !stderr.contains("listening on"),
            "figures {figures}: {stderr}"
        );
    }
}

#[tokio::test]
async fn without_pdftotext_on_path_startup_says_to_install_poppler_utils() {
    let pdf = manual_pdf();
    let output = refsearch(&[
        "--pdf",
        pdf.to_str().unwrap(),
        "--corpus-id",
        "x",
        "--listen",
        "127.0.0.1:0",
    ])
    .env("PATH", "/nonexistent")
    .output()
    .await
    .expect("run refsearch");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("install poppler-utils"), "{stderr}");
}
