//! `figeval run|score|probe --connector …` against a server answering in LangServe's shape:
//! pages read through the mapping, a mapping that reads no page stopped loudly, captures that
//! record their connector, secrets that never reach a file or a printed line, and printed page
//! labels mapped through the Octave manual's own labels.

use std::process::Command;

use figeval_e2e::{bin, expect, octave_pdf, repo_root, report, write, FaultyServer, Reply};
use serde_json::{json, Value};
use testkit::Outcome;

const DATASET: &str = r#"{"corpus_id": "c", "items": [
  {"question": "Which figure shows the first thing?", "expected_pages": [332], "figure_ref": "Figure 1.1", "kind": "locate", "tags": ["figure"]},
  {"question": "Which figure shows the second thing?", "expected_pages": [17], "figure_ref": "Figure 1.2", "kind": "locate", "tags": ["figure"]},
  {"question": "Which figure shows the third thing?", "expected_pages": [3], "figure_ref": "Figure 1.3", "kind": "content", "tags": ["figure"]}
]}"#;

/// A LangServe `/invoke` answer: documents at 0-based `pages`, each with its printed label
/// as the Octave manual numbers it (physical page 17 is "1").
fn langserve(pages: &[i64]) -> String {
    let docs: Vec<Value> = pages
        .iter()
        .map(|&p| {
            json!({"page_content": format!("text of page {}", p + 1), "type": "Document", "id": null,
                   "metadata": {"source": "octave.pdf", "page": p, "page_label": (p + 1 - 16).to_string()}})
        })
        .collect();
    json!({"output": docs, "metadata": {"run_id": "r", "feedback_tokens": []}}).to_string()
}

/// Answers every question in LangServe's shape: the first item on its page, the second on a
/// page off by one, the third with no page at all.
fn server() -> FaultyServer {
    FaultyServer::start(|_, q| {
        let body = match q {
            "Which figure shows the first thing?" => langserve(&[331, 5]),
            "Which figure shows the second thing?" => langserve(&[17]),
            _ => json!({"output": [{"page_content": "x", "metadata": {}, "type": "Document"}]})
                .to_string(),
        };
        Reply::Status(200, body)
    })
}

fn route(s: &FaultyServer) -> String {
    format!("http://{}/octave", s.addr())
}

fn run_with(dir: &std::path::Path, base_url: &str, extra: &[&str]) -> Outcome {
    let ds = write(dir, "d.json", DATASET);
    let mut args = vec![
        "run",
        "--dataset",
        &ds,
        "--base-url",
        base_url,
        "--concurrency",
        "1",
    ];
    args.extend_from_slice(extra);
    expect(&args)
}

fn without_run(mut r: Value) -> Value {
    r.as_object_mut().unwrap().remove("run");
    r
}

#[test]
fn a_langserve_run_reads_zero_based_pages_and_its_capture_scores_the_same() {
    let s = server();
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("c.jsonl");
    let o = run_with(
        dir.path(),
        &route(&s),
        &[
            "--connector",
            "langserve",
            "--capture",
            capture.to_str().unwrap(),
        ],
    );
    assert!((o.code() == Some(0)), "{}", o.stderr());
    let live = report(&o.stdout());
    let hits: Vec<bool> = live["per_item"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["page_hit_at_3"].as_bool().unwrap())
        .collect();
    assert_eq!(hits, [true, false, false], "page 331 is page 332; 17 is 18");
    assert_eq!(live["hits_without_page"], 1);
    assert_eq!(live["per_item"][0]["top"][0]["page_start"], 332);
    assert_eq!(s.asked().len(), 3);
    assert!(s.headers().iter().any(|h| h
        .to_ascii_lowercase()
        .starts_with("content-type: application/json")));
    let text = std::fs::read_to_string(&capture).unwrap();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["request"]["connector"], "langserve");
    assert!(
        first["response"]["output"].is_array(),
        "the answer as received"
    );
    let ds = dir.path().join("d.json");
    let scored = expect(&[
        "score",
        "--connector",
        "langserve",
        "--dataset",
        ds.to_str().unwrap(),
        "--responses",
        capture.to_str().unwrap(),
    ]);
    assert!((scored.code() == Some(0)), "{}", scored.stderr());
    let offline = report(&scored.stdout());
    assert_eq!(without_run(offline), without_run(live));
    let plain = expect(&[
        "score",
        "--dataset",
        ds.to_str().unwrap(),
        "--responses",
        capture.to_str().unwrap(),
    ]);
    assert_eq!(plain.code(), Some(2));
    assert!(
        plain
            .stderr()
            .contains("recorded with the connector \"langserve\" but are read with \"ragweld\""),
        "{}",
        plain.stderr()
    );
}

#[test]
fn a_mapping_that_reads_no_page_stops_the_run_with_exit_2_naming_the_pointer() {
    let s = server();
    let dir = tempfile::tempdir().unwrap();
    let wrong = write(
        dir.path(),
        "wrong.json",
        r#"{"name": "typo", "request": {"url": "{{base_url}}/invoke", "body": {"input": "{{question}}"}},
            "response": {"hits": "/output", "page_start": "/metadata/pag", "numbering": "0"}}"#,
    );
    let out = dir.path().join("r.json");
    let o = run_with(
        dir.path(),
        &route(&s),
        &["--connector", &wrong, "--out", out.to_str().unwrap()],
    );
    let err = o.stderr();
    assert_eq!(o.code(), Some(2), "{err}");
    assert!(
        err.contains("`/metadata/pag` finds nothing in the first hit (its keys: page_content, type, id, metadata)"),
        "{err}"
    );
    assert!(err.contains("no report was written") && !out.exists());
    assert_eq!(
        s.asked().len(),
        1,
        "with one worker, no question is asked before the first answer's pages are read"
    );
}

#[test]
fn a_hits_pointer_that_finds_no_array_is_a_failed_answer() {
    let s = FaultyServer::start(|_, _| Reply::Status(200, r#"{"result": []}"#.into()));
    let dir = tempfile::tempdir().unwrap();
    let o = run_with(dir.path(), &route(&s), &["--connector", "langserve"]);
    let err = o.stderr();
    assert_eq!(o.code(), Some(3), "{err}");
    assert!(
        err.contains("the connector's hits pointer `/output` finds no array in the answer (its keys: result)"),
        "{err}"
    );
}

#[test]
fn a_resume_with_another_connector_is_refused() {
    let s = server();
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("c.jsonl");
    let c = capture.to_str().unwrap();
    run_with(
        dir.path(),
        &route(&s),
        &["--connector", "langserve", "--capture", c],
    )
    .exit(0);
    let o = run_with(
        dir.path(),
        &route(&s),
        &["--connector", "hayhooks", "--capture", c, "--resume"],
    );
    let err = o.stderr();
    assert_eq!(o.code(), Some(2), "{err}");
    assert!(err.contains("cannot resume from"), "{err}");
    assert!(
        err.contains("recorded with the connector \"langserve\" but are read with \"hayhooks\""),
        "{err}"
    );
}

#[test]
fn secrets_never_reach_a_file_or_a_printed_line() {
    const TOKEN: &str = "tok-9f8e7d6c5b4a";
    let dir = tempfile::tempdir().unwrap();
    let conn = write(
        dir.path(),
        "secret.json",
        r#"{"name": "guarded", "request": {"url": "{{base_url}}/invoke",
              "headers": {"Authorization": "Bearer {{env.FIGEVAL_TEST_TOKEN}}"},
              "body": {"input": "{{question}}"}},
            "response": {"hits": "/output", "page_start": "/metadata/page", "numbering": "0"}}"#,
    );
    let ds = write(dir.path(), "d.json", DATASET);
    let figeval_env = |args: &[&str], token: Option<&str>| {
        let mut cmd = Command::new(bin("figeval"));
        cmd.args(args).current_dir(repo_root());
        match token {
            Some(t) => cmd.env("FIGEVAL_TEST_TOKEN", t),
            None => cmd.env_remove("FIGEVAL_TEST_TOKEN"),
        };
        testkit::expect(&mut cmd)
    };
    let unset = figeval_env(
        &[
            "run",
            "--connector",
            &conn,
            "--dataset",
            &ds,
            "--base-url",
            "http://127.0.0.1:9/x",
        ],
        None,
    );
    assert_eq!(unset.code(), Some(2));
    assert!(
        unset
            .stderr()
            .contains("the environment variable FIGEVAL_TEST_TOKEN is not set"),
        "{}",
        unset.stderr()
    );
    // A deployment that echoes the credentials it refuses.
    let refusing = FaultyServer::start(|_, _| {
        Reply::Status(
            401,
            format!(r#"{{"detail": "bad credentials: Bearer {TOKEN}"}}"#),
        )
    });
    let capture = dir.path().join("c.jsonl");
    let out = dir.path().join("r.json");
    let run = |base: &str| {
        let args = [
            "run",
            "--connector",
            &conn,
            "--dataset",
            &ds,
            "--base-url",
            base,
            "--capture",
            capture.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        figeval_env(&args, Some(TOKEN))
    };
    let refused = run(&route(&refusing));
    assert_eq!(refused.code(), Some(3));
    assert!(
        refused.stderr().contains(r#"bad credentials: [redacted]"#),
        "{}",
        refused.stderr()
    );
    assert!(refusing
        .headers()
        .contains(&format!("Authorization: Bearer {TOKEN}")));
    let s = server();
    let base = route(&s);
    let ok = run(&base);
    assert!((ok.code() == Some(0)), "{}", ok.stderr());
    let probe = figeval_env(
        &[
            "probe",
            "--connector",
            &conn,
            "--base-url",
            &base,
            "Which figure shows the first thing?",
        ],
        Some(TOKEN),
    );
    assert!((probe.code() == Some(0)));
    let mut seen = Vec::new();
    for o in [&unset, &refused, &ok, &probe] {
        seen.push(o.stdout());
        seen.push(o.stderr());
    }
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        seen.push(std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    for text in &seen {
        assert!(!text.contains(TOKEN), "the token leaked into:\n{text}");
    }
    let line = std::fs::read_to_string(&capture).unwrap();
    assert!(line.contains(r#""Authorization":"[redacted]""#), "{line}");
}

#[test]
fn probe_shows_what_the_mapping_read_beside_the_hits_keys() {
    let s = server();
    let o = expect(&[
        "probe",
        "--connector",
        "langserve",
        "--base-url",
        &route(&s),
        "Which figure shows the first thing?",
    ]);
    assert!((o.code() == Some(0)), "{}", o.stderr());
    let text = o.stdout();
    assert!(text.contains("2 hits, 0 citing no page"), "{text}");
    assert!(text.contains("#1 p.332 (page_start found 331)"), "{text}");
    assert!(text.contains("  content: \"text of page 332\""), "{text}");
    assert!(
        text.contains("  keys: page_content, type, id, metadata"),
        "{text}"
    );
}

#[test]
fn printed_page_labels_map_to_physical_pages_through_the_pdf() {
    let s = server();
    let dir = tempfile::tempdir().unwrap();
    let labels = write(
        dir.path(),
        "labels.json",
        r#"{"name": "labels", "request": {"url": "{{base_url}}/invoke", "body": {"input": "{{question}}"}},
            "response": {"hits": "/output", "page_start": "/metadata/page_label", "numbering": "label"}}"#,
    );
    let refused = run_with(dir.path(), &route(&s), &["--connector", &labels]);
    assert_eq!(refused.code(), Some(2));
    assert!(
        refused.stderr().contains("give the PDF (--pdf FILE)"),
        "{}",
        refused.stderr()
    );
    let o = run_with(
        dir.path(),
        &route(&s),
        &["--connector", &labels, "--pdf", octave_pdf()],
    );
    assert!((o.code() == Some(0)), "{}", o.stderr());
    let r = report(&o.stdout());
    // Label "316" is physical page 332, label "2" page 18.
    assert_eq!(r["per_item"][0]["top"][0]["page_start"], 332);
    assert_eq!(r["per_item"][1]["top"][0]["page_start"], 18);
    // Label "-10" is on no page of the manual, and the third item's hit has no label.
    assert!(r["per_item"][0]["top"][1]["page_start"].is_null());
    assert_eq!(r["hits_without_page"], 2);
}
