//! The command line's contract: exit statuses, error messages, and that no report is written
//! when the input is bad.

use std::path::{Path, PathBuf};
use std::process::Command;

use testkit::Outcome;

use serde_json::{json, Value};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `figeval` from the repository root, to check its exit status and output.
fn expect(args: &[&str]) -> Outcome {
    testkit::expect(
        Command::new(env!("CARGO_BIN_EXE_figeval"))
            .args(args)
            .current_dir(repo()),
    )
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

const DATASET: &str = r#"{"corpus_id": "c", "items": [
  {"question": "Which figure shows the pitch attitude?", "expected_pages": [72], "figure_ref": "Figure 5-5", "kind": "locate", "tags": ["figure"]},
  {"question": "How many seconds of data are missing?", "expected_pages": [85], "figure_ref": "Figure 5-11", "kind": "content", "tags": ["figure"]},
  {"question": "Who were the three crewmen of the flight?", "expected_pages": [12], "figure_ref": "Section 1.0", "kind": "locate", "tags": ["prose"]}
]}"#;

fn body(q: &str, page: u32, kind: &str) -> Value {
    json!({"query": q, "latency_ms": 3, "matches": [
        {"chunk_id": "x1", "content": "text", "provenance": {"page_start": 1, "page_end": 1}},
        {"chunk_id": 7, "content": "text", "metadata": {"chunk_kind": kind, "figure": {"summary": "a chart"}},
         "provenance": {"page_start": page, "page_end": page}}
    ]})
}

fn capture(pages: [u32; 3]) -> String {
    let qs = [
        "Which figure shows the pitch attitude?",
        "How many seconds of data are missing?",
        "Who were the three crewmen of the flight?",
    ];
    qs.iter()
        .zip(pages)
        .map(|(q, p)| json!({"question": q, "response": body(q, p, "figure")}).to_string() + "\n")
        .collect()
}

#[test]
fn validate_accepts_both_bundled_datasets() {
    let o = expect(&[
        "validate",
        "data/eval_datasets/nasa-apollo-11-figures.json",
        "data/eval_datasets/octave-manual-figures.json",
    ]);
    o.exit(0);
    let out = o.stdout();
    assert!(
        out.contains("nasa-apollo-11, 25 items (content 10, locate 10, prose 5)"),
        "{out}"
    );
    assert!(out.contains("corpus octave-manual"), "{out}");
}

#[test]
fn validate_lists_every_error_with_item_number_and_question_start() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(
        dir.path(),
        "bad.json",
        r#"{"corpus_id": "c", "items": [
          {"question": "Which figure shows the pitch?", "expected_pages": [0], "figure_ref": "F", "kind": "locate", "page": 3},
          {"question": "Which figure shows the pitch?", "expected_pages": ["4"], "figure_ref": "F", "kind": "drawing"},
          {"question": 12, "expected_pages": [], "figure_ref": "F", "kind": "locate", "tags": "prose"}
        ]}"#,
    );
    let o = expect(&["validate", &bad]);
    o.exit(2).stdout_is_empty();
    for needle in [
        "item 1 (\"Which figure shows the pitch?\"): page: unknown key",
        "item 1 (\"Which figure shows the pitch?\"): expected_pages[0]: expected a page number of 1 or more, found the number 0",
        "item 2 (\"Which figure shows the pitch?\"): question: duplicates the question of item 1",
        "item 2 (\"Which figure shows the pitch?\"): expected_pages[0]: expected a page number (1 for the PDF's first page), found the string \"4\"",
        "item 2 (\"Which figure shows the pitch?\"): kind: expected \"locate\" or \"content\", found the string \"drawing\"",
        "item 3: question: expected a non-empty string, found the number 12",
        "item 3: expected_pages: expected at least one page, found an empty array",
        "item 3: tags: expected an array of strings, found the string \"prose\"",
        "8 errors in the dataset",
    ] {
        o.stderr_has(needle);
    }
}

#[test]
fn validate_reports_syntax_errors_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(
        dir.path(),
        "syntax.json",
        "{\n  \"corpus_id\": \"c\",\n  \"items\": [}\n",
    );
    expect(&["validate", &bad])
        .exit(2)
        .stderr_has("line 3, column 13: not valid JSON: a value (a string in double quotes");
}

#[test]
fn validate_of_a_missing_file_names_it() {
    expect(&["validate", "no/such/dataset.json"])
        .exit(2)
        .stderr_has(
            "cannot read the dataset no/such/dataset.json: there is no such file or folder; name \
             a dataset file, or a bundled dataset: nasa-apollo-11-figures (corpus \
             nasa-apollo-11), octave-manual-figures",
        );
}

#[test]
fn a_bundled_dataset_is_named_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let o = testkit::expect(
        Command::new(env!("CARGO_BIN_EXE_figeval"))
            .args(["validate", "octave-manual-figures"])
            .current_dir(dir.path()),
    );
    o.exit(0)
        .stdout_has("ok: octave-manual-figures: corpus octave-manual");
}

#[test]
fn run_without_a_dataset_from_any_folder_refuses_when_the_deployment_does_not_say_its_corpus() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let o = testkit::expect(
        Command::new(env!("CARGO_BIN_EXE_figeval"))
            .args(["run", "--base-url", &format!("http://127.0.0.1:{port}/api")])
            .current_dir(dir.path()),
    );
    o.exit(2)
        .stdout_is_empty()
        .stderr_has("no --dataset given, and the deployment does not say which corpus it serves")
        .stderr_has(
            "pass --dataset FILE, or the name of a bundled dataset: nasa-apollo-11-figures \
             (corpus nasa-apollo-11), octave-manual-figures (corpus octave-manual)",
        );
}

#[test]
fn score_prints_the_report_and_writes_out_creating_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let cap = write(dir.path(), "cap.jsonl", &capture([72, 1, 12]));
    let out = dir.path().join("reports/nested/r.json");
    let o = expect(&[
        "score",
        "--responses",
        &cap,
        "--dataset",
        &ds,
        "--out",
        out.to_str().unwrap(),
    ]);
    o.exit(0);
    let printed: Value = serde_json::from_str(&o.stdout()).unwrap();
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(printed, written);
    assert!(
        o.stdout().starts_with("{\n  \"corpus_id\": \"c\""),
        "indented JSON"
    );
    assert_eq!(printed["n"], 3);
    assert_eq!(printed["page_hit_at_3_hits"], 2);
    assert_eq!(printed["figure_chunk_at_3_hits"], 2);
    assert_eq!(printed["page_hit_at_3"], 0.6667);
    assert_eq!(printed["base_url"], Value::Null);
    assert_eq!(printed["by_group"]["content"]["page_hit_at_3"], 0.0);
    assert_eq!(printed["by_group"]["prose"]["page_mrr"], 0.5);
    assert_eq!(printed["run"]["source"], "cap.jsonl");
    assert_eq!(printed["per_item"][0]["top"][1]["chunk_id"], "7");
    assert_eq!(
        printed["per_item"][0]["figure_summaries_at_3"],
        json!(["a chart"])
    );
}

#[test]
fn score_reads_bare_bodies_arrays_and_single_bodies_alike() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let qs = [
        ("Which figure shows the pitch attitude?", 72),
        ("How many seconds of data are missing?", 1),
        ("Who were the three crewmen of the flight?", 12),
    ];
    let bodies: Vec<Value> = qs.iter().map(|(q, p)| body(q, *p, "figure")).collect();
    let lines: String = bodies.iter().map(|b| b.to_string() + "\n").collect();
    let array = serde_json::to_string_pretty(&Value::Array(bodies.clone())).unwrap();
    let pretty: String = bodies
        .iter()
        .map(|b| serde_json::to_string_pretty(b).unwrap() + "\n")
        .collect();
    let reference = expect(&[
        "score",
        "--dataset",
        &ds,
        "--responses",
        &write(dir.path(), "e.jsonl", &capture([72, 1, 12])),
    ]);
    let want: Value = serde_json::from_str(&reference.stdout()).unwrap();
    for (name, text) in [
        ("bare.jsonl", lines),
        ("array.json", array),
        ("pretty.json", pretty),
    ] {
        let o = expect(&[
            "score",
            "--dataset",
            &ds,
            "--responses",
            &write(dir.path(), name, &text),
        ]);
        o.exit(0);
        let got: Value = serde_json::from_str(&o.stdout()).unwrap();
        assert_eq!(got["per_item"], want["per_item"], "{name}");
        assert_eq!(got["page_hit_at_3"], want["page_hit_at_3"], "{name}");
    }
}

fn assert_bad_capture(text: &str, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let cap = write(dir.path(), "cap.jsonl", text);
    let out = dir.path().join("r.json");
    let o = expect(&[
        "score",
        "--responses",
        &cap,
        "--dataset",
        &ds,
        "--out",
        out.to_str().unwrap(),
    ]);
    o.exit(2).stdout_is_empty();
    assert!(!out.exists(), "no report file");
    for n in needles {
        o.stderr_has(n);
    }
}

#[test]
fn score_refuses_a_response_without_matches_and_lists_its_keys() {
    let mut text = capture([72, 1, 12]);
    text = text.replacen("\"matches\"", "\"results\"", 1);
    assert_bad_capture(
        &text,
        &["line 1 (question \"Which figure shows the pitch attitude?\"): the response has no `matches` array (its keys: query, latency_ms, results)"],
    );
}

#[test]
fn score_refuses_a_match_that_is_not_an_object() {
    let q = "How many seconds of data are missing?";
    let lines: Vec<String> = capture([72, 1, 12]).lines().map(String::from).collect();
    let bad =
        json!({"question": q, "response": {"query": q, "matches": [{"chunk_id": "a"}, "oops"]}});
    let text = format!("{}\n{}\n{}\n", lines[0], bad, lines[2]);
    assert_bad_capture(&text, &["line 2 (question \"How many seconds of data are missing?\"): the match at rank 2 is a string, not a JSON object"]);
}

#[test]
fn score_names_the_line_that_is_not_json() {
    let lines: Vec<String> = capture([72, 1, 12]).lines().map(String::from).collect();
    let text = format!(
        "{}\n{}\n{{\"question\": \"x\", oops}}\n",
        lines[0], lines[1]
    );
    assert_bad_capture(
        &text,
        &[
            // One broken line is one problem: the item it leaves unanswered is not listed again.
            "1 problem with the responses:",
            "line 3 (question \"x\"), column 19: not valid JSON: a key must be a string in double quotes; mend the line or delete it",
        ],
    );
}

#[test]
fn score_lists_unknown_duplicate_and_missing_questions() {
    let lines: Vec<String> = capture([72, 1, 12]).lines().map(String::from).collect();
    let stranger =
        json!({"question": "Which figure is not in the dataset?", "response": {"matches": []}});
    let text = format!("{}\n{}\n{}\n", lines[0], lines[0], stranger);
    assert_bad_capture(
        &text,
        &[
            "1 response for questions that are not in the dataset:",
            "\"Which figure is not in the dataset?\"",
            "1 question with more than one response:",
            "2 items with no response",
            "\"Who were the three crewmen of the flight?\"",
        ],
    );
}

#[test]
fn score_refuses_text_that_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let cap = dir.path().join("bin.jsonl");
    std::fs::write(&cap, b"{\"question\": \"\xff\"}\n").unwrap();
    let o = expect(&[
        "score",
        "--responses",
        cap.to_str().unwrap(),
        "--dataset",
        &ds,
    ]);
    o.exit(2).stderr_has("line 1 is not UTF-8");
}

#[test]
fn allow_missing_scores_the_rest_and_lists_the_unscored() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let first = capture([72, 1, 12]).lines().next().unwrap().to_string();
    let cap = write(dir.path(), "one.jsonl", &first);
    let o = expect(&[
        "score",
        "--responses",
        &cap,
        "--dataset",
        &ds,
        "--allow-missing",
    ]);
    o.exit(0);
    let r: Value = serde_json::from_str(&o.stdout()).unwrap();
    assert_eq!(r["n"], 1);
    assert_eq!(r["unscored"].as_array().unwrap().len(), 2);
    assert_eq!(
        r["by_group"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["locate"]
    );
}

#[test]
fn a_bad_dataset_for_score_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(
        dir.path(),
        "d.json",
        r#"{"corpus_id": "c", "items": [{"question": "q"}]}"#,
    );
    let cap = write(dir.path(), "c.jsonl", &capture([1, 1, 1]));
    expect(&["score", "--responses", &cap, "--dataset", &ds])
        .exit(2)
        .stderr_has("item 1 (\"q\"): expected_pages: missing");
}

/// Scores the capture text `cap` against the dataset `ds` into `dir/NAME.json`; its path.
fn score_to(dir: &Path, name: &str, ds: &str, cap: &str) -> String {
    let cap = write(dir, &format!("{name}.jsonl"), cap);
    let out = dir.join(format!("{name}.json"));
    let o = expect(&[
        "score",
        "--responses",
        &cap,
        "--dataset",
        ds,
        "--out",
        out.to_str().unwrap(),
    ]);
    o.exit(0);
    out.to_str().unwrap().to_string()
}

/// Names the report at `path` (`run.name`; `None` takes the name away, as in a report written
/// before names). Not a number changes, so it reads as before.
fn rename(path: &str, name: Option<&str>) {
    let mut r: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    match name {
        Some(n) => r["run"]["name"] = n.into(),
        None => {
            r["run"].as_object_mut().unwrap().remove("name");
        }
    }
    std::fs::write(path, r.to_string()).unwrap();
}

fn reports(dir: &Path, before: [u32; 3], after: [u32; 3]) -> (String, String) {
    let ds = write(dir, "d.json", DATASET);
    (
        score_to(dir, "before", &ds, &capture(before)),
        score_to(dir, "after", &ds, &capture(after)),
    )
}

#[test]
fn compare_shows_gains_p_values_and_the_reading_guide_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = reports(dir.path(), [1, 1, 12], [72, 85, 12]);
    let text = expect(&["compare", &b, &a]);
    text.exit(0);
    let t = text.stdout();
    assert!(t.contains("page_hit_at_3 gained (2):"), "{t}");
    assert!(t.contains("How to read this:"), "{t}");
    assert!(t.contains("prose control held"), "{t}");
    assert!(
        t.contains("overall (n 3): no change could be significant"),
        "{t}"
    );
    let md = expect(&["compare", &b, &a, "--format", "markdown"]).stdout();
    assert!(
        md.contains("| metric | before | after | delta | delta 95% CI | gained | lost | p |"),
        "{md}"
    );
    assert!(
        md.contains(
            "| **page\\_hit\\_at\\_3** | 0.3333 (1/3; 95% CI 0.06–0.79) | 1.0000 (3/3; 95% CI 0.44–1.00) | +0.6667 | "
        ),
        "{md}"
    );
    let js: Value =
        serde_json::from_str(&expect(&["compare", &b, &a, "--format", "json"]).stdout()).unwrap();
    assert_eq!(
        (&js["before"], &js["after"]),
        (&json!(b), &json!(a)),
        "the files"
    );
    let named: Value = serde_json::from_str(&std::fs::read_to_string(&a).unwrap()).unwrap();
    assert_eq!(
        js["after_name"], named["run"]["name"],
        "and the runs' names"
    );
    assert!(
        js["after_name"]
            .as_str()
            .is_some_and(|n| n.starts_with("after.jsonl ") && n.ends_with(" UTC")),
        "a scored capture is named after its file and the time: {}",
        js["after_name"]
    );
    let overall = &js["scopes"][0];
    assert_eq!(overall["scope"], "overall");
    assert_eq!(overall["metrics"][0]["gained"].as_array().unwrap().len(), 2);
    assert_eq!(overall["metrics"][0]["p_value"], 0.5);
    assert_eq!(overall["metrics"][0]["after_ci"], json!([0.4385, 1.0]));
    assert!(overall["metrics"][0]["delta_ci"].is_array());
    assert!(overall["min_significant_delta"].is_null());
    // The captures record no request, so top_k is unknown: every ranking row is there, null.
    let ranking = overall["ranking"].as_array().unwrap();
    let names: Vec<&str> = ranking
        .iter()
        .map(|r| r["metric"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["ndcg_at_5", "ndcg_at_10", "recall_at_5", "recall_at_10"]
    );
    assert!(ranking
        .iter()
        .all(|r| r["before"].is_null() && r["delta"].is_null()));
    assert!(
        t.lines()
            .any(|l| l.trim_start().starts_with("ndcg_at_10") && l.contains("null")),
        "{t}"
    );
    assert!(
        md.contains("| ndcg\\_at\\_5 | null | null | null | n/a |"),
        "{md}"
    );
}

#[test]
fn the_regression_gate_exits_1_only_when_a_named_group_fell() {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = reports(dir.path(), [72, 85, 12], [72, 1, 12]);
    expect(&["compare", &b, &a, "--fail-on-regression", "content"])
        .exit(1)
        .stderr_has("regression gate tripped: content (page_hit_at_3");
    expect(&["compare", &b, &a, "--fail-on-regression", "locate,prose"]).exit(0);
    expect(&["compare", &b, &a, "--fail-on-regression", "overall"]).exit(1);
    expect(&["compare", &b, &a, "--fail-on-regression", "figures"])
        .exit(2)
        .stderr_has("the scopes are overall, content, locate, prose");
}

#[test]
fn the_regression_gate_can_watch_one_metric_of_a_scope() {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = reports(dir.path(), [72, 85, 12], [72, 1, 12]);
    expect(&[
        "compare",
        &b,
        &a,
        "--fail-on-regression",
        "locate,content:page_hit_at_3",
    ])
    .exit(1)
    .stderr_has("regression gate tripped: content (page_hit_at_3)\n");
    expect(&[
        "compare",
        &b,
        &a,
        "--fail-on-regression",
        "prose:page_hit_at_3",
    ])
    .exit(0);
    let o = expect(&[
        "compare",
        &b,
        &a,
        "--fail-on-regression",
        "overall:page_mrr",
    ]);
    o.exit(2)
        .stderr_has("\"page_mrr\" is not a metric; the metrics are page_hit_at_3");
}

#[test]
fn compare_refuses_a_report_that_disagrees_with_itself_with_exit_2_not_a_tripped_gate() {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = reports(dir.path(), [72, 85, 12], [72, 85, 12]);
    // A tampered report: a hit count its own items contradict, with a rate to match
    // it, would trip the gate if it were believed.
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&a).unwrap()).unwrap();
    let hits = v["page_hit_at_3_hits"].clone();
    v["page_hit_at_3_hits"] = 999.into();
    v["page_hit_at_3"] = 0.1.into();
    // As a report from before intervals (an interval is checked against its own hits).
    v.as_object_mut().unwrap().remove("page_hit_at_3_ci");
    let tampered = write(dir.path(), "tampered.json", &v.to_string());
    let o = expect(&["compare", &b, &tampered, "--fail-on-regression", "overall"]);
    // No comparison of a refused report.
    o.exit(2).stdout_is_empty().stderr_has(&format!(
        "tampered.json: the report disagrees with itself: page_hit_at_3_hits is 999 but per_item gives {hits}"
    ));
}

#[test]
fn compare_opens_a_report_without_per_item_and_warns_that_it_cannot_be_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = reports(dir.path(), [72, 85, 12], [72, 85, 12]);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&a).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("per_item");
    let bare = write(dir.path(), "bare.json", &v.to_string());
    let o = expect(&["compare", &b, &bare, "--fail-on-regression", "overall"]);
    o.exit(0).stderr_has(
        "figeval: WARNING: the after report: it has no per-item records (per_item is empty or \
         missing), so its numbers cannot be checked",
    );
}

#[test]
fn compare_refuses_a_file_that_is_not_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let junk = write(dir.path(), "junk.json", "{\"corpus_id\": \"c\"}");
    expect(&["compare", &junk, &junk]).exit(2).stderr_has(
        "line 1, column 18: not a figeval report: the key max_precise_span_pages is missing",
    );
}

#[test]
fn run_refuses_a_top_k_below_5_with_the_reason() {
    expect(&["run", "--top-k", "3"])
        .exit(2)
        .stderr_has("page_hit_at_5 reads rank 5");
}

#[test]
fn run_against_nothing_listening_is_exit_3_naming_the_base_url() {
    // Bind then drop: the port is free and nothing listens on it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}/api");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let o = expect(&[
        "run",
        "--dataset",
        "data/eval_datasets/nasa-apollo-11-figures.json",
        "--base-url",
        &base,
        "--retries",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    o.exit(3)
        .stdout_is_empty()
        .stderr_has(&format!("cannot connect to the deployment at {base}"))
        .stderr_has("(after 1 retry)")
        .stderr_has("the search failed for item 1 (\"Which figure shows the lunar");
    assert!(!out.exists());
}

#[test]
fn usage_errors_are_exit_2_and_help_is_exit_0() {
    expect(&["score"]).exit(2);
    expect(&["frobnicate"])
        .exit(2)
        .stderr_has("unrecognized subcommand");
    expect(&["run", "--cache-mode", "sometimes"]).exit(2);
    // --resume needs --capture.
    expect(&["run", "--resume"]).exit(2).stderr_has("--capture");
    expect(&["--help"]).exit(0).stdout_has("Usage:");
}

#[test]
fn run_refuses_settings_outside_the_cores_limits_in_the_cores_words() {
    for (flag, value, rule) in [
        (
            "--concurrency",
            "65",
            "concurrency must be a whole number from 1 to 64",
        ),
        (
            "--retries",
            "11",
            "retries must be a whole number from 0 to 10",
        ),
        (
            "--timeout",
            "3601",
            "the timeout must be a number of seconds above 0 and at most 3600",
        ),
        (
            "--base-url",
            "ftp://h/api",
            "the base URL must be an http:// or https:// address",
        ),
    ] {
        expect(&["run", flag, value]).exit(2).stderr_has(rule);
    }
}

#[test]
fn a_report_that_cannot_be_written_is_exit_4_not_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let cap = write(dir.path(), "c.jsonl", &capture([72, 85, 12]));
    // A file where the report's folder should be: the folder cannot be made.
    let blocker = write(dir.path(), "blocker", "");
    let out = format!("{blocker}/report.json");
    let o = expect(&[
        "score",
        "--responses",
        &cap,
        "--dataset",
        &ds,
        "--out",
        &out,
    ]);
    // No report passed off as written.
    o.exit(4)
        .stdout_is_empty()
        .stderr_has(&format!("cannot write the report to {out}"));
}

/// `figeval export` of `cap` against `ds` into `qrels` and `run`, with `extra` flags.
fn export(ds: &str, cap: &str, qrels: &Path, run: &Path, extra: &[&str]) -> Outcome {
    let mut args = vec![
        "export",
        "--dataset",
        ds,
        "--responses",
        cap,
        "--qrels",
        qrels.to_str().unwrap(),
        "--run",
        run.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    expect(&args)
}

#[test]
fn export_writes_qrels_a_page_run_and_the_query_map() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let cap = write(dir.path(), "c.jsonl", &capture([72, 1, 12]));
    let (qrels, run, queries) = (
        dir.path().join("out/qrels.txt"),
        dir.path().join("out/run.txt"),
        dir.path().join("out/queries.jsonl"),
    );
    let o = export(
        &ds,
        &cap,
        &qrels,
        &run,
        &["--queries", queries.to_str().unwrap()],
    );
    o.exit(0);
    assert_eq!(
        std::fs::read_to_string(&qrels).unwrap(),
        "q1 0 p72 1\nq2 0 p85 1\nq3 0 p12 1\n"
    );
    // The second item's two matches both cite page 1: it is listed once, at rank 1.
    assert_eq!(
        std::fs::read_to_string(&run).unwrap(),
        "q1 Q0 p1 1 1 figeval\nq1 Q0 p72 2 0.5 figeval\n\
         q2 Q0 p1 1 1 figeval\n\
         q3 Q0 p1 1 1 figeval\nq3 Q0 p12 2 0.5 figeval\n"
    );
    let map = std::fs::read_to_string(&queries).unwrap();
    let third: Value = serde_json::from_str(map.lines().nth(2).unwrap()).unwrap();
    assert_eq!(
        third,
        json!({"qid": "q3", "question": "Who were the three crewmen of the flight?"})
    );
}

#[test]
fn export_beir_writes_the_same_queries_judgments_and_run_in_beirs_layout() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let cap = write(dir.path(), "c.jsonl", &capture([72, 1, 12]));
    let beir = dir.path().join("beir");
    expect(&[
        "export",
        "--dataset",
        &ds,
        "--responses",
        &cap,
        "--beir",
        beir.to_str().unwrap(),
    ])
    .exit(0)
    .stderr_has("in BEIR's layout to");
    let read = |p: &str| std::fs::read_to_string(beir.join(p)).unwrap();
    assert_eq!(
        read("qrels/test.tsv"),
        "query-id\tcorpus-id\tscore\nq1\tp72\t1\nq2\tp85\t1\nq3\tp12\t1\n"
    );
    let results: Value = serde_json::from_str(&read("results.json")).unwrap();
    assert_eq!(
        results,
        json!({"q1": {"p1": 1.0, "p72": 0.5}, "q2": {"p1": 1.0}, "q3": {"p1": 1.0, "p12": 0.5}})
    );
    let third: Value = serde_json::from_str(read("queries.jsonl").lines().nth(2).unwrap()).unwrap();
    assert_eq!(
        third,
        json!({"_id": "q3", "text": "Who were the three crewmen of the flight?"})
    );
    // Nothing asked for is a usage error.
    expect(&["export", "--dataset", &ds, "--responses", &cap])
        .exit(2)
        .stderr_has("--qrels");
}

#[test]
fn export_refuses_a_capture_with_an_unanswered_item_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let text: String = capture([72, 85, 12])
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    let cap = write(dir.path(), "c.jsonl", &text);
    let run = dir.path().join("run.txt");
    let o = export(&ds, &cap, &dir.path().join("qrels.txt"), &run, &[]);
    o.exit(2).stderr_has("Who were the three crewmen");
    assert!(!run.exists());
}

#[test]
fn compare_of_several_runs_shows_a_matrix_against_the_base_and_gates_each_run() {
    let dir = tempfile::tempdir().unwrap();
    // base: only the prose item hits; better: all three; worse: none.
    let (base, better) = reports(dir.path(), [1, 1, 12], [72, 85, 12]);
    let worse_dir = dir.path().join("w");
    std::fs::create_dir(&worse_dir).unwrap();
    let (_, worse) = reports(&worse_dir, [1, 1, 12], [1, 1, 1]);
    // Runs are named by their names; one without falls back to its file, and a name two runs
    // share is told apart by their files.
    rename(&base, None);
    rename(&better, Some("figures on"));
    rename(&worse, Some("figures on"));
    let text = expect(&["compare", &base, &better, &worse]);
    text.exit(0);
    let t = text.stdout();
    assert!(
        t.contains(&format!("2 runs against the base {base}")),
        "{t}"
    );
    assert!(t.contains(&format!("figures on ({worse})")), "{t}");
    assert!(t.contains("overall · page_hit_at_3"), "{t}");
    assert!(t.contains("1.0000 (3/3; 95% CI 0.44–1.00)"), "{t}");
    assert!(t.contains("Holm"), "{t}");
    let too_small = "overall (n 3): no change could be significant; McNemar needs at least 6 \
                     paired items flipping the same way";
    assert!(
        t.contains(&format!(
            "Too small to tell (exact McNemar, p < 0.05):\n  - {too_small}\n"
        )),
        "{t}"
    );
    let js: Value = serde_json::from_str(
        &expect(&["compare", &base, &better, &worse, "--format", "json"]).stdout(),
    )
    .unwrap();
    assert_eq!(js["rows"].as_array().unwrap().len(), 3);
    assert_eq!(js["rows"][1]["label"], format!("figures on ({better})"));
    assert_eq!(
        js["columns"][0],
        json!({"scope": "overall", "metric": "page_hit_at_3"})
    );
    let better_cell = &js["rows"][1]["cells"][0];
    assert_eq!(better_cell["delta"], 0.6667);
    // Holm over the two runs: the better run's p (0.5) is the smaller and is doubled.
    assert_eq!(better_cell["p_value"], 0.5);
    assert_eq!(better_cell["p_holm"], 1.0);
    assert_eq!(
        js["too_small_to_tell"][0], too_small,
        "once: both runs pair alike"
    );
    let md = expect(&["compare", &base, &better, &worse, "--format", "markdown"]).stdout();
    assert!(md.contains("| report | page\\_hit\\_at\\_3 |"), "{md}");
    assert!(
        md.contains("- Too small to tell (exact McNemar, p < 0.05):\n  - overall \\(n 3\\)"),
        "{md}"
    );
    expect(&[
        "compare",
        &base,
        &better,
        &worse,
        "--fail-on-regression",
        "prose",
    ])
    .exit(1)
    .stderr_has(&format!("figures on ({worse}): prose (page_hit_at_3"))
    .stderr_lacks(&format!("({better}): prose"));
}

/// Before and after reports of one locate item per entry: `before_hits[i]` and `after_hits[i]`
/// say whether item i's page is in the top 3 (each match a figure chunk).
fn hit_reports(dir: &Path, before_hits: &[bool], after_hits: &[bool]) -> (String, String) {
    let items: Vec<Value> = (0..before_hits.len())
        .map(|i| {
            json!({"question": format!("Where is figure {i}?"), "expected_pages": [i + 2],
                   "figure_ref": format!("Figure {i}"), "kind": "locate", "tags": ["figure"]})
        })
        .collect();
    let ds = write(
        dir,
        "many.json",
        &json!({"corpus_id": "c", "items": items}).to_string(),
    );
    let cap = |hits: &[bool]| -> String {
        hits.iter()
            .enumerate()
            .map(|(i, &hit)| {
                let q = format!("Where is figure {i}?");
                let page = if hit { i as u32 + 2 } else { 1 };
                json!({"question": q, "response": body(&q, page, "figure")}).to_string() + "\n"
            })
            .collect()
    };
    (
        score_to(dir, "before-many", &ds, &cap(before_hits)),
        score_to(dir, "after-many", &ds, &cap(after_hits)),
    )
}

/// `n` hits, the first `misses` of them turned to misses.
fn hits_but(n: usize, misses: usize) -> Vec<bool> {
    (0..n).map(|i| i >= misses).collect()
}

#[test]
fn one_lost_question_of_33_trips_the_plain_gate_but_the_significance_gate_calls_it_noise() {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = hit_reports(dir.path(), &hits_but(33, 0), &hits_but(33, 1));
    // --fail-on-regression keeps its meaning.
    expect(&["compare", &b, &a, "--fail-on-regression", "overall"]).exit(1);
    let o = expect(&[
        "compare",
        &b,
        &a,
        "--fail-on-significant-regression",
        "overall:page_hit_at_3",
    ]);
    o.exit(0);
    let t = o.stdout();
    assert!(
        t.contains(
            "Significance gate: exact two-sided McNemar test on the paired items, p Holm-adjusted \
             across the 1 gated test"
        ),
        "{t}"
    );
    assert!(
        t.contains(
            "  overall · page_hit_at_3: -0.0303 (delta 95% CI -0.15 to +0.08; lost 1, gained 0), \
             p 1, Holm 1: within noise\n"
        ),
        "{t}"
    );
    assert!(
        t.contains("held: no significant drop; 1 drop within noise"),
        "{t}"
    );
    o.stderr_lacks("tripped");
}

#[test]
fn the_significance_gate_trips_on_a_significant_drop_holm_adjusted_across_the_gated_metrics() {
    let dir = tempfile::tempdir().unwrap();
    // 10 of 33 lost, none gained: p = 2/1024 for each of the three page metrics;
    // figure_chunk_at_3 falls the same way (every match is a figure chunk): Holm × 4.
    let (b, a) = hit_reports(dir.path(), &hits_but(33, 0), &hits_but(33, 10));
    let o = expect(&[
        "compare",
        &b,
        &a,
        "--fail-on-significant-regression",
        "locate",
    ]);
    o.exit(1).stderr_has(
        "figeval: significant regression gate tripped: locate · page_hit_at_3 (-0.3030, \
             exact McNemar p 0.0020, Holm 0.0078)",
    );
    let js: Value = serde_json::from_str(
        &expect(&[
            "compare",
            &b,
            &a,
            "--format",
            "json",
            "--fail-on-significant-regression",
            "locate",
        ])
        .stdout(),
    )
    .unwrap();
    let gate = &js["significance_gate"];
    assert_eq!(
        gate["test"],
        "exact two-sided McNemar test on the paired items"
    );
    assert_eq!(gate["tripped"], true);
    assert_eq!(gate["checks"].as_array().unwrap().len(), 4);
    assert_eq!(gate["checks"][0]["finding"], "significant_drop");
    assert!(gate["checks"][0]["delta_ci"].is_array());
    let o = expect(&[
        "compare",
        &b,
        &a,
        "--fail-on-significant-regression",
        "prose",
    ]);
    o.exit(2)
        .stderr_has("--fail-on-significant-regression names prose that neither report has");
}

#[test]
fn where_the_interval_excludes_zero_but_mcnemar_does_not_reach_005_one_line_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // 5 of 5 gained: Newcombe's interval excludes 0, the exact McNemar p is 0.0625.
    let (b, a) = hit_reports(dir.path(), &hits_but(5, 5), &hits_but(5, 0));
    let t = expect(&["compare", &b, &a]).stdout();
    let line = "  note: page_hit_at_3: the delta's 95% CI +0.39 to +1.00 excludes 0 but the exact \
                McNemar p is 0.062 (not below 0.05); the significance gate follows the McNemar \
                test\n";
    assert!(t.contains(line), "{t}");
    let js: Value =
        serde_json::from_str(&expect(&["compare", &b, &a, "--format", "json"]).stdout()).unwrap();
    assert_eq!(
        js["scopes"][0]["metrics"][0]["disagreement"],
        "interval_excludes_zero"
    );
}

#[test]
fn summary_file_appends_the_markdown_comparison_whatever_the_format() {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = hit_reports(dir.path(), &hits_but(33, 0), &hits_but(33, 1));
    let summary = dir.path().join("step-summary.md");
    std::fs::write(&summary, "# earlier step\n").unwrap();
    let s = summary.to_str().unwrap();
    for format in ["json", "text"] {
        let o = expect(&[
            "compare",
            &b,
            &a,
            "--format",
            format,
            "--summary-file",
            s,
            "--fail-on-significant-regression",
            "overall",
        ]);
        o.exit(0);
    }
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.starts_with("# earlier step\n## figeval compare: "),
        "{md}"
    );
    assert_eq!(md.matches("## figeval compare: ").count(), 2, "{md}");
    assert_eq!(md.matches("### Significance gate").count(), 2, "{md}");
    assert!(
        md.contains("| overall · page\\_hit\\_at\\_3 | -0.0303 | -0.15 to +0.08 | 1 | 0 | 1 | 1 | within noise |"),
        "{md}"
    );
    let o = expect(&[
        "compare",
        &b,
        &a,
        "--summary-file",
        dir.path().to_str().unwrap(),
    ]);
    o.exit(4).stderr_has("cannot append the summary to");
}

#[test]
fn the_significance_gate_over_several_runs_adjusts_across_them_and_names_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let (base, noisy) = hit_reports(dir.path(), &hits_but(33, 0), &hits_but(33, 1));
    let broken_dir = dir.path().join("b");
    std::fs::create_dir(&broken_dir).unwrap();
    let (_, broken) = hit_reports(&broken_dir, &hits_but(33, 0), &hits_but(33, 12));
    rename(&noisy, Some("noisy"));
    rename(&broken, Some("broken"));
    let o = expect(&[
        "compare",
        &base,
        &noisy,
        &broken,
        "--fail-on-significant-regression",
        "overall:page_hit_at_3",
    ]);
    o.exit(1)
        .stderr_has("significant regression gate tripped: broken: overall · page_hit_at_3")
        .stderr_lacks("noisy: overall");
    let t = o.stdout();
    assert!(t.contains("across the 2 gated tests"), "{t}");
    assert!(t.contains("noisy: overall · page_hit_at_3: -0.0303"), "{t}");
}

#[test]
fn pasted_answers_keep_their_ranking_metrics_as_deep_as_every_answer_goes() {
    let dir = tempfile::tempdir().unwrap();
    let ds = write(dir.path(), "d.json", DATASET);
    let qs = [
        "Which figure shows the pitch attitude?",
        "How many seconds of data are missing?",
        "Who were the three crewmen of the flight?",
    ];
    // Bare bodies, as a deployment logs them: no request, so no top_k.
    let bodies = |matches: [usize; 3]| -> String {
        qs.iter()
            .zip(matches)
            .map(|(q, k)| {
                let hits: Vec<Value> = (0..k)
                    .map(|r| json!({"chunk_id": r, "provenance": {"page_start": 72 + r, "page_end": 72 + r}}))
                    .collect();
                json!({"query": q, "matches": hits}).to_string() + "\n"
            })
            .collect()
    };
    let score = |text: &str, extra: &[&str]| {
        let cap = write(dir.path(), "bare.jsonl", text);
        let mut args = vec!["score", "--responses", &cap, "--dataset", &ds];
        args.extend(extra);
        expect(&args)
    };
    let o = score(&bodies([10, 10, 10]), &[]);
    let r: Value = serde_json::from_str(&o.exit(0).stdout()).unwrap();
    assert!(r["top_k"].is_null());
    assert!(
        r["ndcg_at_10"].is_number() && r["recall_at_5"].is_number(),
        "{r}"
    );
    assert!(r["ranking_note"].is_null());
    let o = score(&bodies([10, 7, 10]), &[]);
    let r: Value = serde_json::from_str(&o.exit(0).stdout()).unwrap();
    assert!(
        r["ndcg_at_5"].is_number() && r["ndcg_at_10"].is_null(),
        "{r}"
    );
    assert_eq!(
        r["ranking_note"],
        "ndcg_at_10 and recall_at_10 are null: top_k is unknown, and the answer to \"How many \
         seconds of data are missing?\" holds 7 matches; a metric at k is never computed on \
         fewer than k matches"
    );
    // Stated: the deployment was asked for 10 and had 7 for that question.
    let o = score(&bodies([10, 7, 10]), &["--top-k", "10"]);
    let r: Value = serde_json::from_str(&o.exit(0).stdout()).unwrap();
    assert_eq!(r["top_k"], 10);
    assert!(r["ndcg_at_10"].is_number(), "{r}");
    score(&bodies([10, 7, 10]), &["--top-k", "5"])
        .exit(2)
        .stdout_is_empty()
        .stderr_has(
            "--top-k: top_k 5 is too few: the answer to \"Which figure shows the pitch \
             attitude?\" holds 10 matches",
        );
}
