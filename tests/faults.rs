//! `figeval run` against a deliberately faulty server: every failure of contract §2 is loud
//! (exit 3, the question and the cause named, no report), retries absorb only what they may,
//! and a resume asks only for what the capture lacks.

use std::time::Duration;

use figeval_e2e::{body_citing, expect, report, write, FaultyServer, Reply};
use serde_json::Value;

const DATASET: &str = r#"{"corpus_id": "c", "items": [
  {"question": "Which figure shows the first thing?", "expected_pages": [1], "figure_ref": "Figure 1.1", "kind": "locate", "tags": ["figure"]},
  {"question": "Which figure shows the second thing?", "expected_pages": [2], "figure_ref": "Figure 1.2", "kind": "locate", "tags": ["figure"]},
  {"question": "Which figure shows the third thing?", "expected_pages": [3], "figure_ref": "Figure 1.3", "kind": "content", "tags": ["figure"]}
]}"#;

fn run(server: &FaultyServer, dir: &std::path::Path, extra: &[&str]) -> testkit::Outcome {
    let ds = write(dir, "d.json", DATASET);
    let out = dir.join("report.json");
    let mut args = vec![
        "run",
        "--dataset",
        &ds,
        "--base-url",
        &server.base_url,
        "--out",
        out.to_str().unwrap(),
    ];
    if !extra.contains(&"--concurrency") {
        args.extend(["--concurrency", "1"]);
    }
    args.extend_from_slice(extra);
    expect(&args)
}

fn assert_loud_failure(o: &testkit::Outcome, dir: &std::path::Path, needles: &[&str]) {
    o.exit(3)
        .stdout_is_empty()
        .stderr_has("no report was written");
    assert!(!dir.join("report.json").exists(), "no report file");
    for n in needles {
        o.stderr_has(n);
    }
}

#[test]
fn a_500_names_the_question_the_status_and_the_body_start() {
    let server = FaultyServer::start(|n, q| {
        if n == 1 {
            Reply::Status(
                500,
                format!("{{\"detail\": \"index exploded {}\"}}", "x".repeat(600)),
            )
        } else {
            Reply::Status(200, body_citing(q, 1))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let o = run(&server, dir.path(), &[]);
    assert_loud_failure(
        &o,
        dir.path(),
        &[
            "the search failed for item 2 (\"Which figure shows the second thing?\")",
            "HTTP 500",
            "index exploded",
        ],
    );
    let err = o.stderr();
    assert!(
        !err.contains(&"x".repeat(501)),
        "the body is quoted to 500 characters"
    );
    assert_eq!(
        server.asked().len(),
        2,
        "a 500 is not retried, and the run stops"
    );
}

#[test]
fn a_body_that_is_not_json_is_a_failure_not_a_miss() {
    let server = FaultyServer::start(|_, _| Reply::Status(200, "<html>gateway</html>".into()));
    let dir = tempfile::tempdir().unwrap();
    let o = run(&server, dir.path(), &[]);
    assert_loud_failure(
        &o,
        dir.path(),
        &["item 1", "the response is not JSON", "<html>gateway</html>"],
    );
}

#[test]
fn a_body_without_matches_lists_what_it_has() {
    let server = FaultyServer::start(|_, q| {
        Reply::Status(
            200,
            serde_json::json!({"query": q, "results": [], "error": null}).to_string(),
        )
    });
    let dir = tempfile::tempdir().unwrap();
    let o = run(&server, dir.path(), &[]);
    assert_loud_failure(
        &o,
        dir.path(),
        &["the response has no `matches` array (its keys: query, results, error)"],
    );
}

#[test]
fn a_match_that_is_not_an_object_is_a_failure() {
    let server = FaultyServer::start(|_, _| Reply::Status(200, r#"{"matches": [[1, 2]]}"#.into()));
    let dir = tempfile::tempdir().unwrap();
    let o = run(&server, dir.path(), &[]);
    assert_loud_failure(
        &o,
        dir.path(),
        &["the match at rank 1 is an array, not a JSON object"],
    );
}

#[test]
fn a_slow_answer_past_the_timeout_fails_without_retrying() {
    // An answer 60 times the timeout: only a wait cut short ends well before it, even on a
    // loaded machine.
    let server =
        FaultyServer::start(|_, q| Reply::Slow(Duration::from_secs(30), body_citing(q, 1)));
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let o = run(&server, dir.path(), &["--timeout", "0.5"]);
    assert_loud_failure(&o, dir.path(), &["item 1", "within 0.5 s (--timeout)"]);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the timeout cut the wait short"
    );
    assert_eq!(server.asked().len(), 1, "a timeout is not retried");
}

#[test]
fn a_single_503_is_absorbed_by_a_retry_and_counted() {
    let server = FaultyServer::start(|n, q| {
        if n == 0 {
            Reply::Status(503, "{\"detail\": \"warming up\"}".into())
        } else {
            Reply::Status(200, body_citing(q, 1))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let o = run(&server, dir.path(), &[]);
    o.exit(0);
    let r = report(&o.stdout());
    assert_eq!(r["run"]["retries"], 1);
    assert_eq!(r["n"], 3);
    assert_eq!(
        r["page_hit_at_3_hits"], 1,
        "only the first item expects page 1"
    );
    assert_eq!(server.asked().len(), 4);
}

#[test]
fn retries_are_bounded() {
    let server =
        FaultyServer::start(|_, _| Reply::Status(429, "{\"detail\": \"slow down\"}".into()));
    let dir = tempfile::tempdir().unwrap();
    let o = run(&server, dir.path(), &["--retries", "2"]);
    assert_loud_failure(&o, dir.path(), &["HTTP 429", "(after 2 retries)"]);
    assert_eq!(server.asked().len(), 3, "one try and two retries");
}

#[test]
fn a_hangup_is_a_failure() {
    let server = FaultyServer::start(|_, _| Reply::Hangup);
    let dir = tempfile::tempdir().unwrap();
    let o = run(&server, dir.path(), &["--retries", "0"]);
    assert_loud_failure(&o, dir.path(), &["item 1"]);
}

#[test]
fn a_resume_after_a_failure_asks_only_for_the_missing_items() {
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("run.capture.jsonl");
    let cap = capture.to_str().unwrap();
    let failing = FaultyServer::start(|n, q| {
        if n == 2 {
            Reply::Status(500, "{\"detail\": \"down\"}".into())
        } else {
            Reply::Status(200, body_citing(q, 2))
        }
    });
    let o = run(&failing, dir.path(), &["--capture", cap]);
    assert_loud_failure(
        &o,
        dir.path(),
        &["item 3", "2 of 3 answers are in the capture", "--resume"],
    );
    let kept = std::fs::read_to_string(&capture).unwrap();
    assert_eq!(
        kept.lines().count(),
        2,
        "the capture holds every answer received"
    );
    let addr = failing.addr();
    drop(failing);

    // The deployment is back on the same address: a resume asks only for item 3.
    let healthy = FaultyServer::start_at(addr, |_, q| Reply::Status(200, body_citing(q, 3)));
    let o = run(&healthy, dir.path(), &["--capture", cap, "--resume"]);
    o.exit(0);
    assert_eq!(healthy.asked(), ["Which figure shows the third thing?"]);
    o.stderr_has("(from capture)");
    let live = report(&o.stdout());
    assert_eq!(live["n"], 3);
    assert_eq!(
        live["page_hit_at_3_hits"], 2,
        "item 2 (page 2, from the capture) and item 3 hit"
    );

    // The completed capture scores offline to the same report, apart from `run`.
    let o = score(dir.path(), cap);
    o.exit(0);
    let offline = report(&o.stdout());
    assert_eq!(settled(offline), settled(live));
    assert_eq!(
        std::fs::read_to_string(&capture).unwrap().lines().count(),
        3
    );
}

#[test]
fn a_live_report_and_the_score_of_its_capture_state_the_same_settings() {
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("c.jsonl");
    let cap = capture.to_str().unwrap();
    let server = FaultyServer::start(|_, q| Reply::Status(200, body_citing(q, 1)));
    let settings = [
        "--top-k",
        "7",
        "--cache-mode",
        "refresh",
        "--max-precise-span",
        "4",
    ];
    let o = run(
        &server,
        dir.path(),
        &[&["--capture", cap][..], &settings].concat(),
    );
    o.exit(0);
    let live = report(&o.stdout());
    let ds = dir.path().join("d.json");
    let o = expect(&[
        "score",
        "--responses",
        cap,
        "--dataset",
        ds.to_str().unwrap(),
        "--max-precise-span",
        "4",
    ]);
    o.exit(0);
    let offline = report(&o.stdout());
    let header = |r: &Value| {
        [
            "corpus_id",
            "base_url",
            "top_k",
            "cache_mode",
            "max_precise_span_pages",
        ]
        .map(|k| (k, r[k].clone()))
    };
    let expected = [
        ("corpus_id", Value::from("c")),
        ("base_url", Value::from(server.base_url.as_str())),
        ("top_k", Value::from(7)),
        ("cache_mode", Value::from("refresh")),
        ("max_precise_span_pages", Value::from(4)),
    ];
    assert_eq!(header(&live), expected);
    assert_eq!(header(&offline), expected);
    assert_eq!(settled(offline), settled(live));
}

#[test]
fn a_resume_with_other_search_settings_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("c.jsonl");
    let cap = capture.to_str().unwrap();
    let server = FaultyServer::start(|_, q| Reply::Status(200, body_citing(q, 1)));
    let o = run(&server, dir.path(), &["--capture", cap]);
    o.exit(0);
    let o = run(
        &server,
        dir.path(),
        &["--capture", cap, "--resume", "--top-k", "8"],
    );
    o.exit(2).stderr_has("cannot resume");
}

#[test]
fn progress_lines_name_position_outcome_group_pages_and_question() {
    let server = FaultyServer::start(|_, q| Reply::Status(200, body_citing(q, 1)));
    let dir = tempfile::tempdir().unwrap();
    let o = run(&server, dir.path(), &["--concurrency", "3"]);
    o.exit(0);
    let err = o.stderr();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].starts_with("[1/3] hit  locate  p.1")
            && lines[0].contains("Which figure shows the first"),
        "{err}"
    );
    assert!(lines[2].starts_with("[3/3] miss content p.3"), "{err}");
    let r: Value = report(&o.stdout());
    let order: Vec<&str> = r["per_item"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["question"].as_str().unwrap())
        .collect();
    assert_eq!(
        order[0], "Which figure shows the first thing?",
        "dataset order"
    );
}

/// The report without its `run` object (when and how long), for comparing two runs.
fn settled(mut r: Value) -> Value {
    r.as_object_mut().unwrap().remove("run");
    r
}

/// `figeval score` of a capture in `dir` against the dataset there.
fn score(dir: &std::path::Path, capture: &str) -> testkit::Outcome {
    let ds = dir.join("d.json");
    expect(&[
        "score",
        "--responses",
        capture,
        "--dataset",
        ds.to_str().unwrap(),
    ])
}

/// A healthy server, the capture of a clean run against it, that run's settled report, and
/// the capture's lines.
fn clean_capture(dir: &std::path::Path) -> (FaultyServer, String, Value, Vec<String>) {
    let capture = dir.join("run.capture.jsonl").to_str().unwrap().to_string();
    let server = FaultyServer::start(|_, q| Reply::Status(200, body_citing(q, 2)));
    let o = run(&server, dir, &["--capture", &capture]);
    o.exit(0);
    let clean = settled(report(&o.stdout()));
    let lines = std::fs::read_to_string(&capture)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    (server, capture, clean, lines)
}

#[test]
fn a_resume_drops_a_cut_off_last_line_and_asks_for_its_item_again() {
    let dir = tempfile::tempdir().unwrap();
    let (server, cap, clean, lines) = clean_capture(dir.path());

    // A crash mid-write: line 1 whole, line 2 cut in half, no line 3.
    let cut = format!("{}\n{}", lines[0], &lines[1][..lines[1].len() / 2]);
    std::fs::write(&cap, &cut).unwrap();
    let asked_before = server.asked().len();
    let o = run(&server, dir.path(), &["--capture", &cap, "--resume"]);
    o.exit(0)
        .stderr_has("line 2 is cut off")
        .stderr_has("this run asks for it again");
    assert_eq!(
        server.asked()[asked_before..],
        [
            "Which figure shows the second thing?",
            "Which figure shows the third thing?"
        ],
        "the cut-off item and the missing one are asked again, nothing else"
    );
    assert_eq!(settled(report(&o.stdout())), clean);

    // The capture was cut back to its whole lines before the rest was appended: it is clean.
    let completed = std::fs::read_to_string(&cap).unwrap();
    assert_eq!(completed.lines().count(), 3, "{completed}");
    assert!(completed.starts_with(&format!("{}\n", lines[0])));
    let o = score(dir.path(), &cap);
    o.exit(0);
    assert_eq!(settled(report(&o.stdout())), clean);
}

#[test]
fn a_resume_refuses_a_broken_line_that_is_not_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let (server, cap, _, lines) = clean_capture(dir.path());
    let half = &lines[1][..lines[1].len() / 2];
    std::fs::write(&cap, format!("{}\n{half}\n{}\n", lines[0], lines[2])).unwrap();
    let asked_before = server.asked().len();
    let o = run(&server, dir.path(), &["--capture", &cap, "--resume"]);
    o.exit(2)
        .stderr_has("cannot resume from")
        .stderr_has("line 2 (question \"Which figure shows the second thing?\"), column")
        .stderr_has("; mend the line or delete it");
    assert_eq!(server.asked().len(), asked_before, "nothing was asked");
}

#[test]
fn score_notes_a_cut_off_last_line_and_lists_its_item_as_missing() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, cap, _, lines) = clean_capture(dir.path());
    let cut = &lines[2][..lines[2].len() - 40];
    std::fs::write(&cap, format!("{}\n{}\n{cut}", lines[0], lines[1])).unwrap();
    let o = score(dir.path(), &cap);
    o.exit(2)
        .stderr_has("line 3 is cut off")
        .stderr_has("1 item with no response")
        .stderr_has("Which figure shows the third thing?");
}

#[test]
fn a_capture_that_cannot_be_written_is_exit_4() {
    let server = FaultyServer::start(|_, q| Reply::Status(200, body_citing(q, 1)));
    let dir = tempfile::tempdir().unwrap();
    // Every write to /dev/full fails with "no space left on device".
    let o = run(&server, dir.path(), &["--capture", "/dev/full"]);
    o.exit(4)
        .stdout_is_empty()
        .stderr_has("cannot write the capture /dev/full")
        .stderr_has("0 of 3 answers are in the capture");
    assert!(!dir.path().join("report.json").exists());
}

#[test]
fn a_capture_write_failure_does_not_hide_the_deployment_failure_before_it() {
    let server = FaultyServer::start(|_, q| {
        if q.contains("second") {
            Reply::Status(500, "{\"detail\": \"down\"}".into())
        } else {
            // Item 1 was taken before item 2, so it is in flight when the 500 arrives; its
            // answer then fails to be written.
            Reply::Slow(Duration::from_millis(300), body_citing(q, 1))
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        &server,
        dir.path(),
        &["--capture", "/dev/full", "--concurrency", "2"],
    );
    assert_loud_failure(&o, dir.path(), &["item 2", "HTTP 500"]);
    o.stderr_has("also: cannot write the capture /dev/full");
}
